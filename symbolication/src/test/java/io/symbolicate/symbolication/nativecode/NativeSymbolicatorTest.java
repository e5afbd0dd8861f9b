package io.symbolicate.symbolication.nativecode;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.NativeFrame;
import io.symbolicate.schema.NativeModule;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.symbolication.store.TablesLookup;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.nativecode.CallerAdjust;
import io.symbolicate.symbols.nativecode.InlineFrame;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.nativecode.SharedUtf8;
import io.symbolicate.symbols.nativecode.SyntheticSymFile;
import io.symbolicate.symbols.symbfile.SymbfileConverter;
import io.symbolicate.symbols.symbfile.SymbfileWriter;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.testing.SharedFixtures;
import io.symbolicate.testkit.events.BenchEvents;
import io.symbolicate.testkit.events.SampleEvents;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * What the native step keeps per thread from event to event (validated module identities, a
 * stack's working arrays) never changes what an event needs or what comes out.
 */
class NativeSymbolicatorTest {

  private static CrashEvent withModules(String id, String scope, String debugFile, String debugId) {
    CrashEvent e = SampleEvents.nativeEvent(id);
    e.setScope(scope);
    List<NativeModule> mods = new ArrayList<>(e.getNative$().getModules());
    mods.set(
        0,
        NativeModule.newBuilder(mods.get(0)).setDebugFile(debugFile).setDebugId(debugId).build());
    e.getNative$().setModules(mods);
    return e;
  }

  @Test
  void modulesNeededFollowScopeFileAndIdAcrossEvents() {
    NativeSymbolicator step = new NativeSymbolicator();
    String id = "0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0";
    List<ModuleRef> a = step.modulesNeeded(withModules("1", "tenant-a", "crashy", id));
    assertThat(a).extracting(ModuleRef::scope).containsOnly("tenant-a");
    assertThat(a.get(0).key()).isEqualTo("crashy/" + id);
    // same identity, another scope: that scope's reference, never the memoised one
    assertThat(step.modulesNeeded(withModules("2", "tenant-b", "crashy", id)).get(0))
        .isEqualTo(new ModuleRef("tenant-b", a.get(0).kind(), "crashy/" + id));
    // same debug id with another file name: a new key
    assertThat(step.modulesNeeded(withModules("3", "tenant-a", "other.so", id)).get(0).key())
        .isEqualTo("other.so/" + id);
    // lower-case ids are normalised as before; invalid identities are still not needed at all
    assertThat(
            step.modulesNeeded(withModules("4", "tenant-a", "crashy", id.toLowerCase()))
                .get(0)
                .key())
        .isEqualTo("crashy/" + id);
    assertThat(step.modulesNeeded(withModules("5", "tenant-a", "../x", id)))
        .hasSize(1)
        .extracting(ModuleRef::key)
        .doesNotContain("../x/" + id);
    assertThat(step.modulesNeeded(withModules("6", "tenant-a", "crashy", "not-hex!"))).hasSize(1);
    // and back to the first: still right after the others went through the memo
    assertThat(step.modulesNeeded(withModules("7", "tenant-a", "crashy", id))).isEqualTo(a);
  }

  private static ModuleRef ref(int module) {
    return new ModuleRef(
        DebugIdentifiers.GLOBAL_SCOPE,
        TableKind.NATIVE,
        DebugIdentifiers.nativeModule(
                SyntheticSymFile.debugFile(module), SyntheticSymFile.debugId(module))
            .key());
  }

  @Test
  void eventsAfterEventsComeOutAsIfEachWereTheFirst() throws IOException {
    // module 0 found, module 1 missing: a frame answered from a page left over from an earlier
    // event would come out symbolicated where it must say missing_symbols
    TablesLookup lookup =
        new TablesLookup()
            .found(ref(0), synthetic(0, 200))
            .negative(ref(1), TableStatus.missing, "not in any source");
    BenchEvents gen = new BenchEvents(2, 200, null);
    Random rnd = new Random(3);
    List<CrashEvent> events = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      events.add(gen.event(i, rnd));
    }
    // one longer stack (120 frames) among the short ones
    CrashEvent longStack = gen.event(99, rnd);
    List<NativeFrame> frames = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      frames.addAll(gen.event(100 + i, rnd).getNative$().getThreads().get(0).getFrames());
    }
    longStack.getNative$().getThreads().get(0).setFrames(frames);
    events.add(3, longStack);

    NativeSymbolicator reused = new NativeSymbolicator();
    int symbolicated = 0;
    int missing = 0;
    for (CrashEvent e : events) {
      SymbolicatedEvent out = reused.symbolicate(e, lookup, 1000L);
      assertThat(out).isEqualTo(new NativeSymbolicator().symbolicate(e, lookup, 1000L));
      for (SymbolicatedFrame f : out.getStacks().get(0).getFrames()) {
        if (f.getModuleIndex() == 0) {
          assertThat(f.getStatus()).isEqualTo(FrameStatus.symbolicated);
          assertThat(f.getFunction())
              .matches(
                  "bench::(module0::function_[0-9]+\\(int, char const\\*\\)|inlined_helper\\(int\\))");
          symbolicated++;
        } else {
          assertThat(f.getStatus()).isEqualTo(FrameStatus.missing_symbols);
          assertThat(f.getFunction()).isNull();
          missing++;
        }
      }
      assertThat(out.getModulesInStack()).containsExactly(ref(0).key(), ref(1).key());
      assertThat(out.getMissingSymbols()).containsExactly(ref(1).key());
    }
    assertThat(symbolicated).isGreaterThan(100);
    assertThat(missing).isGreaterThan(100);
  }

  /**
   * Every frame of the benchmark's events has a symbol, in any number of events: a frame without
   * one would take a path that only some runs meet (the caller adjustment of a FUNC's first byte).
   */
  @Test
  void benchEventsAreCoveredBySymbolsEverywhere() throws IOException {
    TablesLookup lookup =
        new TablesLookup().found(ref(0), synthetic(0, 20)).found(ref(1), synthetic(1, 20));
    // 20 FUNCs per module: every FUNC's first byte is drawn often in 2,000 events
    BenchEvents gen = new BenchEvents(2, 20, null);
    Random rnd = new Random(43);
    NativeSymbolicator step = new NativeSymbolicator();
    int frames = 0;
    for (int i = 0; i < 2000; i++) {
      for (SymbolicatedFrame f :
          step.symbolicate(gen.event(i, rnd), lookup, 1000L).getStacks().get(0).getFrames()) {
        assertThat(f.getStatus())
            .as("event %d frame %d", i, f.getOriginalIndex())
            .isEqualTo(FrameStatus.symbolicated);
        frames++;
      }
    }
    assertThat(frames).isGreaterThanOrEqualTo(2000 * BenchEvents.FRAMES);
  }

  @Test
  void outputNamesAreThePagesOwnUtf8() throws IOException {
    TablesLookup lookup = new TablesLookup().found(ref(0), synthetic(0, 20));
    BenchEvents gen = new BenchEvents(1, 20, null);
    NativeSymbolicator step = new NativeSymbolicator();
    int inlined = 0;
    for (int i = 0; i < 200; i++) {
      for (SymbolicatedFrame f :
          step.symbolicate(gen.event(i, new Random(i)), lookup, 1000L)
              .getStacks()
              .get(0)
              .getFrames()) {
        // the encoder copies a page's UTF-8 bytes as they are; a String it would encode again
        assertThat(f.getFunction()).isInstanceOf(SharedUtf8.class);
        assertThat(f.getFile()).isInstanceOf(SharedUtf8.class);
        inlined += f.getInlined() ? 1 : 0;
      }
    }
    assertThat(inlined).isGreaterThan(100);
  }

  /**
   * A symbol file with 600 nested INLINE records at one address: every frame lists its 256
   * innermost inlined callers and its function, says how many it left out, and the event stops
   * listing inlined frames once it has 50,000 beyond one per input frame (without the bounds,
   * 300 such frames became 180,300 output frames; 20,000 of them, 12 million).
   */
  @Test
  void deepInlineChainsAreBoundedPerFrameAndPerEvent() throws IOException {
    int depth = 600;
    String debugId = "0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0";
    StringBuilder sym =
        new StringBuilder("MODULE Linux x86_64 " + debugId + " crashy\nFILE 0 a.c\n");
    for (int i = 0; i < depth; i++) {
      sym.append("INLINE_ORIGIN ").append(i).append(" inlined_").append(i).append("\n");
    }
    sym.append("FUNC 1000 100 0 outer\n");
    for (int i = 0; i < depth; i++) {
      sym.append("INLINE ")
          .append(i)
          .append(' ')
          .append(10 + i)
          .append(" 0 ")
          .append(i)
          .append(" 1000 100\n");
    }
    sym.append("1000 100 5 0\n");
    NativeTable table =
        NativeSymbols.convert(
            new ByteArrayInputStream(
                sym.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII)),
            NativeSymbols.Options.defaults());
    ModuleRef ref =
        new ModuleRef(DebugIdentifiers.GLOBAL_SCOPE, TableKind.NATIVE, "crashy/" + debugId);
    TablesLookup lookup = new TablesLookup().found(ref, table);
    CrashEvent e = withModules("deep", DebugIdentifiers.GLOBAL_SCOPE, "crashy", debugId);
    List<NativeFrame> frames = new ArrayList<>();
    int n = 300;
    for (int i = 0; i < n; i++) {
      frames.add(
          NativeFrame.newBuilder(e.getNative$().getThreads().get(0).getFrames().get(0))
              .setModuleIndex(0)
              .setModuleOffset(0x1010L)
              .setTrust("context")
              .build());
    }
    e.getNative$().getThreads().get(0).setFrames(frames);

    List<SymbolicatedFrame> out =
        new NativeSymbolicator().symbolicate(e, lookup, 1000L).getStacks().get(0).getFrames();
    int[] inlinedPer = new int[n];
    int functions = 0;
    for (SymbolicatedFrame f : out) {
      assertThat(f.getStatus()).isEqualTo(FrameStatus.symbolicated);
      if (f.getInlined()) {
        inlinedPer[f.getOriginalIndex()]++;
        continue;
      }
      functions++;
      assertThat(f.getFunction().toString()).isEqualTo("outer");
      int left = depth - inlinedPer[f.getOriginalIndex()];
      assertThat(f.getMessage())
          .as("frame %d", f.getOriginalIndex())
          .startsWith(left + " inlined frames between this function and the ones listed are not");
    }
    assertThat(functions).isEqualTo(n);
    assertThat(inlinedPer[0]).isEqualTo(NativeSymbolicator.MAX_INLINES_PER_FRAME);
    assertThat(out.get(0).getFunction().toString())
        .as("innermost first")
        .isEqualTo("inlined_" + (depth - 1));
    assertThat(inlinedPer[n - 1]).as("the event's budget is spent").isZero();
    assertThat(out.size() - n)
        .isEqualTo(
            io.symbolicate.symbolication.platform.SymbolicatedEvents.MAX_EXTRA_FRAMES_PER_EVENT);
  }

  /**
   * A frame whose module_index is in range refers to that module whatever its offset: the
   * module is needed and gets its status (as Mozilla's service looks it up), only the frame's own
   * address is not looked up (-1 or no offset: invalid_frame). Before, such a module was unused.
   */
  @Test
  void aModuleIsReferencedByItsIndexWhateverTheOffset() throws IOException {
    List<NativeModule> modules = new ArrayList<>();
    for (int m = 0; m < 4; m++) {
      modules.add(
          NativeModule.newBuilder()
              .setDebugFile(SyntheticSymFile.debugFile(m))
              .setDebugId(SyntheticSymFile.debugId(m))
              .build());
    }
    CrashEvent e = SampleEvents.nativeEvent("offsets");
    e.getNative$().setModules(modules);
    e.getNative$()
        .getThreads()
        .get(0)
        .setFrames(
            List.of(
                NativeFrame.newBuilder()
                    .setModuleIndex(0)
                    .setModuleOffset(-1L)
                    .setTrust("context")
                    .build(),
                NativeFrame.newBuilder()
                    .setModuleIndex(1)
                    .setModuleOffset(null)
                    .setTrust("context")
                    .build(),
                NativeFrame.newBuilder()
                    .setModuleIndex(4)
                    .setModuleOffset(-1L)
                    .setTrust("context")
                    .build(),
                NativeFrame.newBuilder()
                    .setModuleIndex(3)
                    .setModuleOffset(-1L)
                    .setTrust("context")
                    .build()));
    TablesLookup lookup =
        new TablesLookup()
            .found(ref(0), synthetic(0, 20))
            .negative(ref(1), TableStatus.missing, "not in any source");
    NativeSymbolicator step = new NativeSymbolicator();

    assertThat(step.modulesNeeded(e)).containsExactly(ref(0), ref(1), ref(3));
    SymbolicatedEvent out = step.symbolicate(e, lookup, 1000L);
    // module 2: no frame; module 3: referenced, never loaded (fetch_failed, as any module not in
    // time)
    assertThat(out.getModules())
        .extracting(r -> r.getStatus())
        .containsExactly(
            io.symbolicate.schema.ModuleStatus.found, io.symbolicate.schema.ModuleStatus.missing,
            io.symbolicate.schema.ModuleStatus.unused,
                io.symbolicate.schema.ModuleStatus.fetch_failed);
    assertThat(out.getModulesInStack()).containsExactly(ref(0).key(), ref(1).key(), ref(3).key());
    assertThat(out.getMissingSymbols()).containsExactly(ref(1).key());
    assertThat(out.getStacks().get(0).getFrames())
        .extracting(SymbolicatedFrame::getStatus)
        .containsOnly(FrameStatus.invalid_frame);
    assertThat(out.getStacks().get(0).getFrames())
        .extracting(f -> String.valueOf(f.getMessage()))
        .containsExactly(
            "negative module_offset",
            "module_index without module_offset",
            "module_index 4 out of range (4 modules)",
            "negative module_offset");
  }

  /**
   * A caller frame answers from its return pad where the table has one (issue 30): the peer's
   * inline-no-tco ranges with the pads its tests derive from them, one pad's line moved (+1000)
   * so that the pad's answer is told from the ranges'. Frame 0, a "context" frame and a caller
   * without a pad answer from the ranges at the (adjusted) address; every frame equals
   * NativeSymbolizer.lookup(returnAddress, ARM64), the symbols module's rule.
   */
  @Test
  void callerFramesAnswerFromTheirReturnPads() throws Exception {
    com.fasterxml.jackson.databind.JsonNode retpads =
        new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(
                SharedFixtures.fixtures("symbfile")
                    .resolve("derived/expected_from_peer_tests.json")
                    .toFile())
            .get("ranges_to_retpads_inline_no_tco");
    String file = retpads.get("file").asText();
    java.io.ByteArrayOutputStream pads = new java.io.ByteArrayOutputStream();
    try (SymbfileWriter w = new SymbfileWriter(pads)) {
      w.stringTable(
          List.of(
              file, "main", "a_inline", "b_inline", "c_inline", "d_inline", "a", "b", "c", "d"));
      for (com.fasterxml.jackson.databind.JsonNode rec : retpads.get("records")) {
        var e = rec.get("entries");
        String[] fn = new String[e.size()];
        String[] files = new String[e.size()];
        int[] lines = new int[e.size()];
        for (int i = 0; i < e.size(); i++) {
          fn[i] = e.get(i).get("func").asText();
          files[i] = file;
          lines[i] =
              e.get(i).get("line").asInt()
                  + (rec.get("elf_va").asText().equals("0x7b3") ? 1000 : 0);
        }
        w.returnPad(Long.decode(rec.get("elf_va").asText()), fn, files, lines);
      }
    }
    NativeTable table =
        SymbfileConverter.convert(
            new SymbfileConverter.Module("inline-no-tco", "arm64", null),
            java.nio.file.Files.newInputStream(
                SharedFixtures.fixtures("symbfile")
                    .resolve(
                        "otel-ebpf-profiler/rust-crates/symblib/testdata/inline-no-tco.ranges.symbfile")),
            new ByteArrayInputStream(pads.toByteArray()));
    NativeSymbolizer s = NativeSymbolizer.inMemory(table);
    String debugId = "0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0";
    ModuleRef ref =
        new ModuleRef(DebugIdentifiers.GLOBAL_SCOPE, TableKind.NATIVE, "inline/" + debugId);
    TablesLookup lookup = new TablesLookup().found(ref, table);
    CrashEvent e = withModules("pads", DebugIdentifiers.GLOBAL_SCOPE, "inline", debugId);
    e.getNative$().setArch("arm64");
    long[] offsets = {0x7b4, 0x7b4, 0x658, 0x7b4, 0x7a8};
    String[] trust = {"context", "cfi", "fp", "context", "cfi"};
    boolean[] caller = {false, true, true, false, true};
    List<NativeFrame> frames = new ArrayList<>();
    for (int i = 0; i < offsets.length; i++) {
      frames.add(
          NativeFrame.newBuilder()
              .setModuleIndex(0)
              .setModuleOffset(offsets[i])
              .setTrust(trust[i])
              .build());
    }
    e.getNative$().getThreads().get(0).setFrames(frames);

    List<SymbolicatedFrame> out =
        new NativeSymbolicator().symbolicate(e, lookup, 1000L).getStacks().get(0).getFrames();
    int at = 0;
    for (int i = 0; i < offsets.length; i++) {
      io.symbolicate.symbols.nativecode.NativeFrame want =
          caller[i] ? s.lookup(offsets[i], CallerAdjust.ARM64) : s.lookup(offsets[i]);
      for (int j = 0; j < want.inlines().size(); j++, at++) {
        InlineFrame in = want.inlines().get(j);
        SymbolicatedFrame f = out.get(at);
        assertThat(f.getOriginalIndex()).isEqualTo(i);
        assertThat(f.getInlined()).isTrue();
        assertThat(String.valueOf(f.getFunction()))
            .as("frame %d inline %d", i, j)
            .isEqualTo(in.function());
        assertThat(f.getLine()).as("frame %d inline %d", i, j).isEqualTo(in.line());
        assertThat(String.valueOf(f.getFile())).isEqualTo(in.file());
      }
      SymbolicatedFrame f = out.get(at++);
      assertThat(f.getOriginalIndex()).isEqualTo(i);
      assertThat(f.getInlined()).isFalse();
      assertThat(String.valueOf(f.getFunction())).as("frame %d", i).isEqualTo(want.function());
      assertThat(f.getLine()).as("frame %d", i).isEqualTo(want.line());
      assertThat(f.getFunctionOffset())
          .as("frame %d", i)
          .isEqualTo(want.address() - want.functionBase());
    }
    assertThat(out).hasSize(at);
    // the pad won where it exists (its line moved), and only for caller frames
    assertThat(out.get(1).getLine()).as("caller frame at 0x7b4: the pad's line").isEqualTo(1007);
    assertThat(out.get(0).getLine()).as("frame 0 at 0x7b4: the ranges' line").isNotEqualTo(1007);
    assertThat(out.get(out.size() - 2).getLine())
        .as("context frame at 0x7b4: the ranges")
        .isNotEqualTo(1007);
    // the inline chain of a call in main comes from the pad at 0x657
    List<SymbolicatedFrame> chain = out.stream().filter(f -> f.getOriginalIndex() == 2).toList();
    assertThat(chain)
        .extracting(f -> String.valueOf(f.getFunction()))
        .containsExactly("d_inline", "c_inline", "b_inline", "a_inline", "main");
    assertThat(chain).extracting(SymbolicatedFrame::getLine).containsExactly(23, 27, 31, 35, 40);
    // no pad at 0x7a8 - 1: the ranges at 0x7a8 - 4
    assertThat(s.returnPad(0x7a8)).isNull();
    assertThat(out.get(out.size() - 1).getFunctionOffset())
        .isEqualTo(0x7a4 - s.lookup(0x7a4).functionBase());
  }

  /** The table of {@link SyntheticSymFile}'s module {@code module} with {@code functions} FUNCs. */
  private static NativeTable synthetic(int module, int functions) throws IOException {
    return NativeSymbols.convert(
        new ByteArrayInputStream(SyntheticSymFile.sym(module, functions)),
        NativeSymbols.Options.defaults());
  }
}
