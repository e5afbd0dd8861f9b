package io.symbolicate.symbolication.nativecode;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.NativeFrame;
import io.symbolicate.schema.NativeModule;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.symbolication.store.TablesLookup;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.symbfile.FileId;
import io.symbolicate.symbols.symbfile.SymbfileConverter;
import io.symbolicate.symbols.symbfile.SymbfileKeys;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.testing.SharedFixtures;
import io.symbolicate.testkit.events.SampleEvents;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Native modules named by Elastic's FileID (alone or beside a debug id): looked up as
 * {@code symbfile/<FileID>} in the table the loader builds from the symbfiles, their frames'
 * offsets taken as ELF virtual addresses; the peer's fixture gives its inline chain.
 */
class FileIdModulesTest {
  static final Path RANGES =
      SharedFixtures.fixtures("symbfile")
          .resolve("otel-ebpf-profiler/rust-crates/symblib/testdata/inline-no-tco.ranges.symbfile");
  static final FileId ID = FileId.of(new byte[] {1, 2, 3});
  static final ModuleRef REF =
      new ModuleRef("global", TableKind.NATIVE, SymbfileKeys.moduleKey(ID));

  static NativeTable table() throws Exception {
    try (InputStream in = Files.newInputStream(RANGES)) {
      return SymbfileConverter.convert(new SymbfileConverter.Module("inline", "x86_64", ID), in);
    }
  }

  /** One thread, one context frame at ELF address 0x650 of module 0. */
  static CrashEvent event(NativeModule module) {
    CrashEvent e = SampleEvents.nativeEvent("fileid");
    e.getNative$().setModules(List.of(module));
    e.getNative$()
        .getThreads()
        .get(0)
        .setFrames(
            List.of(
                NativeFrame.newBuilder()
                    .setModuleIndex(0)
                    .setModuleOffset(0x650L)
                    .setTrust("context")
                    .build()));
    return e;
  }

  static void assertChain(List<SymbolicatedFrame> frames) {
    assertThat(frames)
        .extracting(f -> f.getFunction().toString())
        .containsExactly("d_inline", "c_inline", "b_inline", "a_inline", "main");
    assertThat(frames)
        .extracting(SymbolicatedFrame::getStatus)
        .containsOnly(FrameStatus.symbolicated);
    assertThat(frames.get(4).getInlined()).isFalse();
    assertThat(frames.get(4).getModuleOffset()).isEqualTo(0x650L);
  }

  @Test
  void aModuleNamingItsFileIdIsLookedUpAsSymbfile() throws Exception {
    // written in hex: named by the canonical base64url form
    CrashEvent e = event(NativeModule.newBuilder().setFileId(ID.toHex()).build());
    NativeSymbolicator step = new NativeSymbolicator();
    assertThat(step.modulesNeeded(e)).containsExactly(REF);
    SymbolicatedEvent out = step.symbolicate(e, new TablesLookup().found(REF, table()), 1000L);
    assertThat(out.getModules().get(0).getStatus()).isEqualTo(ModuleStatus.found);
    assertThat(out.getModules().get(0).getKey()).isEqualTo(REF.key());
    assertThat(out.getModulesInStack()).containsExactly(REF.key());
    assertChain(out.getStacks().get(0).getFrames());
  }

  @Test
  void besideADebugIdTheFileIdAnswersWhenTheBreakpadFileIsMissing() throws Exception {
    String debugId = "0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0";
    ModuleRef breakpad = new ModuleRef("global", TableKind.NATIVE, "inline/" + debugId);
    CrashEvent e =
        event(
            NativeModule.newBuilder()
                .setDebugFile("inline")
                .setDebugId(debugId)
                .setFileId(ID.toBase64())
                .build());
    NativeSymbolicator step = new NativeSymbolicator();
    assertThat(step.modulesNeeded(e)).containsExactly(breakpad, REF);

    SymbolicatedEvent out =
        step.symbolicate(
            e,
            new TablesLookup()
                .negative(breakpad, TableStatus.missing, "nowhere")
                .found(REF, table()),
            1000L);
    assertThat(out.getModules().get(0).getStatus()).isEqualTo(ModuleStatus.found);
    assertThat(out.getModules().get(0).getKey()).isEqualTo(REF.key());
    assertThat(out.getModulesInStack()).containsExactly(breakpad.key(), REF.key());
    assertThat(out.getMissingSymbols()).isEmpty();
    assertChain(out.getStacks().get(0).getFrames());

    // neither found: both are missing, so reprocessing after either upload finds the event
    SymbolicatedEvent none =
        step.symbolicate(
            e,
            new TablesLookup()
                .negative(breakpad, TableStatus.missing, "nowhere")
                .negative(REF, TableStatus.missing, "nowhere"),
            1000L);
    assertThat(none.getModules().get(0).getStatus()).isEqualTo(ModuleStatus.missing);
    assertThat(none.getMissingSymbols()).containsExactlyInAnyOrder(breakpad.key(), REF.key());
    assertThat(none.getStacks().get(0).getFrames().get(0).getStatus())
        .isEqualTo(FrameStatus.missing_symbols);
  }

  @Test
  void anInvalidFileIdIsAMalformedRequest() {
    CrashEvent e = event(NativeModule.newBuilder().setFileId("not a file id").build());
    NativeSymbolicator step = new NativeSymbolicator();
    assertThat(step.modulesNeeded(e)).isEmpty();
    SymbolicatedEvent out = step.symbolicate(e, new TablesLookup(), 1000L);
    assertThat(out.getModules().get(0).getStatus()).isEqualTo(ModuleStatus.malformed_request);
    assertThat(out.getModules().get(0).getMessage()).isEqualTo("invalid file_id");
  }
}
