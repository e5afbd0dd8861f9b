package io.symbolicate.symbolication.nativecode;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.NativeModule;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.testkit.events.SampleEvents;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Native modules named by their code id alone (no debug_id, maybe no debug_file): an ELF build
 * id is keyed {@code buildid/<id>[/<name>]}, a Mach-O UUID is its debug id, a PE code id names
 * nothing; modules with a debug_file/debug_id pair keep their key whatever their code id.
 */
class CodeIdModulesTest {
  private static final String BUILD_ID = "b060ad20c6b47781552708aa192e7739fac7c84a";

  /** The sample event with its first module replaced (its frames use it). */
  private static CrashEvent with(String id, NativeModule first) {
    CrashEvent e = SampleEvents.nativeEvent(id);
    List<NativeModule> mods = new ArrayList<>(e.getNative$().getModules());
    NativeModule old = mods.get(0);
    mods.set(
        0,
        NativeModule.newBuilder(first)
            .setImageAddr(old.getImageAddr())
            .setImageSize(old.getImageSize())
            .build());
    e.getNative$().setModules(mods);
    return e;
  }

  private static NativeModule module(
      String type, String codeId, String codeFile, String debugFile) {
    return NativeModule.newBuilder()
        .setType(type)
        .setCodeId(codeId)
        .setCodeFile(codeFile)
        .setDebugFile(debugFile)
        .build();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      nullValues = "null",
      value = {
        "elf with its path, elf, "
            + BUILD_ID
            + ", /usr/lib/libfoo.so, null, buildid/"
            + BUILD_ID
            + "/libfoo.so",
        "debug file before code file, elf, "
            + BUILD_ID
            + ", /usr/lib/libfoo.so, libfoo.so.dbg,"
            + " buildid/"
            + BUILD_ID
            + "/libfoo.so.dbg",
        "no name, elf, " + BUILD_ID + ", null, null, buildid/" + BUILD_ID,
        "no type: a build id, null, B060AD20C6B47781552708AA192E7739FAC7C84A, null, null, buildid/"
            + BUILD_ID,
        "mach-o uuid with dashes, macho, 67E9247C-814E-392B-A027-DBDE6748FCBF, /Apps/crash, null,"
            + " crash/67E9247C814E392BA027DBDE6748FCBF0",
      })
  void aCodeIdAloneNamesTheModule(
      String what, String type, String codeId, String codeFile, String debugFile, String key) {
    List<ModuleRef> refs =
        new NativeSymbolicator()
            .modulesNeeded(with("1", module(type, codeId, codeFile, debugFile)));
    assertThat(refs).as(what).extracting(ModuleRef::key).contains(key);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      nullValues = "null",
      value = {
        "pe timestamp and size, pe, 5AB380779000, crash.exe",
        "mach-o uuid without a name, macho, 67E9247C814E392BA027DBDE6748FCBF, null",
        "half a byte, elf, abc, libfoo.so",
        "a path in the name, elf, 0a0b, ..",
      })
  void aCodeIdThatNamesNoFileIsAMalformedRequest(
      String what, String type, String codeId, String codeFile) {
    CrashEvent e = with("1", module(type, codeId, codeFile, null));
    NativeSymbolicator step = new NativeSymbolicator();
    assertThat(step.modulesNeeded(e)).as(what).hasSize(1); // libc only
    ModuleResult m = step.symbolicate(e, 0).getModules().get(0);
    assertThat(m.getStatus()).as(what).isEqualTo(ModuleStatus.malformed_request);
    assertThat(m.getMessage()).as(what).contains("code_id");
  }

  @Test
  void aDebugIdPairKeepsItsKeyAndTheMemoFollowsTheCodeId() {
    NativeSymbolicator step = new NativeSymbolicator();
    NativeModule paired =
        NativeModule.newBuilder(module("elf", BUILD_ID, "crashy", "crashy"))
            .setDebugId("20AD60B0B4C68177552708AA192E77390")
            .build();
    assertThat(step.modulesNeeded(with("1", paired)).get(0).key())
        .isEqualTo("crashy/20AD60B0B4C68177552708AA192E77390");
    // one code id, then another at the same position: each its own key
    String other = "00112233445566778899aabbccddeeff00112233";
    assertThat(step.modulesNeeded(with("2", module("elf", BUILD_ID, "a.so", null))).get(0).key())
        .isEqualTo("buildid/" + BUILD_ID + "/a.so");
    assertThat(step.modulesNeeded(with("3", module("elf", other, "a.so", null))).get(0).key())
        .isEqualTo("buildid/" + other + "/a.so");
    assertThat(step.modulesNeeded(with("4", module("elf", other, "b.so", null))).get(0).key())
        .isEqualTo("buildid/" + other + "/b.so");
  }

  @Test
  void aModuleNamedByCodeIdIsLookedUpNotMalformed() {
    SymbolicatedEvent out =
        new NativeSymbolicator()
            .symbolicate(with("1", module("elf", BUILD_ID, "/usr/lib/libfoo.so", null)), 0);
    ModuleResult m = out.getModules().get(0);
    assertThat(m.getStatus()).isNotEqualTo(ModuleStatus.malformed_request);
    assertThat(out.getModulesInStack()).contains("buildid/" + BUILD_ID + "/libfoo.so");
  }
}
