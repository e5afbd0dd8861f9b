package io.symbolicate.symbolication.nativecode;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.schema.NativeFrame;
import io.symbolicate.schema.NativeModule;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The allocation-free module index agrees with the full resolution for every kind of frame. */
class NativeModuleResolverTest {

  private static NativeModule module(long addr, Long size) {
    return moduleAt(addr, size);
  }

  private static NativeModule moduleAt(Long addr, Long size) {
    return NativeModule.newBuilder()
        .setType("elf")
        .setCodeFile("m")
        .setDebugFile("m")
        .setDebugId("AB")
        .setImageAddr(addr)
        .setImageSize(size)
        .build();
  }

  private static NativeFrame frame(Integer index, Long offset, Long addr) {
    return NativeFrame.newBuilder()
        .setModuleIndex(index)
        .setModuleOffset(offset)
        .setInstructionAddr(addr)
        .build();
  }

  @Test
  void moduleIndexOfAgreesWithResolve() {
    NativeModuleResolver r =
        new NativeModuleResolver(
            List.of(module(0x5000, 0x1000L), module(0x1000, 0x100L), module(0x9000, null)));
    List<NativeFrame> frames =
        new ArrayList<>(
            List.of(
                frame(0, 5L, null),
                frame(2, 0L, null),
                frame(-1, 5L, null),
                frame(3, 5L, null),
                frame(-2, 5L, null),
                frame(1, null, null),
                frame(1, -4L, null),
                frame(null, null, null),
                frame(null, null, 0x1000L),
                frame(null, null, 0x10ffL),
                frame(null, null, 0x1100L),
                frame(null, null, 0xfffL),
                frame(null, null, 0x5800L),
                frame(null, null, 0x9000L + (1L << 40)),
                frame(null, null, -1L)));
    int resolved = 0;
    for (NativeFrame f : frames) {
      NativeModuleResolver.Resolution full = r.resolve(f);
      int expected =
          full.kind() == NativeModuleResolver.Resolution.Kind.RESOLVED ? full.moduleIndex() : -1;
      assertThat(r.moduleIndexOf(f)).as(f.toString()).isEqualTo(expected);
      resolved += expected >= 0 ? 1 : 0;
    }
    assertThat(resolved).isEqualTo(5);
  }

  @Test
  void aModuleIndexInRangeRefersToItsModuleWhateverTheOffset() {
    NativeModuleResolver r =
        new NativeModuleResolver(List.of(module(0x5000, 0x1000L), module(0x1000, 0x100L)));
    assertThat(r.referencedModuleOf(frame(1, -1L, null))).isEqualTo(1);
    assertThat(r.referencedModuleOf(frame(0, null, null))).isEqualTo(0);
    assertThat(r.referencedModuleOf(frame(0, 16L, null))).isEqualTo(0);
    assertThat(r.referencedModuleOf(frame(-1, 16L, null))).isEqualTo(-1);
    assertThat(r.referencedModuleOf(frame(2, -1L, null))).isEqualTo(-1);
    assertThat(r.referencedModuleOf(frame(null, null, 0x1010L))).isEqualTo(1);
    assertThat(r.referencedModuleOf(frame(null, null, 0x2000L))).isEqualTo(-1);
    // ...while the address lookup still needs an offset in the module
    assertThat(r.moduleIndexOf(frame(1, -1L, null))).isEqualTo(-1);
    assertThat(r.moduleIndexOf(frame(0, null, null))).isEqualTo(-1);
  }

  private static NativeFrame relative(String mode, Long addr) {
    return NativeFrame.newBuilder().setAddrMode(mode).setInstructionAddr(addr).build();
  }

  /**
   * Symbolicator's {@code addr_mode}: {@code rel:N} makes the address an offset in module N (as
   * module_index and module_offset would), {@code abs} is the absolute address, anything else
   * an invalid frame; the allocation-free index agrees with the full resolution on each.
   */
  @Test
  void addrModeRelNamesTheModuleAndAbsTheAddress() {
    NativeModuleResolver r =
        new NativeModuleResolver(List.of(module(0x5000, 0x1000L), module(0x1000, 0x100L)));
    NativeModuleResolver.Resolution rel = r.resolve(relative("rel:1", 0x20L));
    assertThat(rel.kind()).isEqualTo(NativeModuleResolver.Resolution.Kind.RESOLVED);
    assertThat(rel.moduleIndex()).isEqualTo(1);
    assertThat(rel.moduleOffset()).isEqualTo(0x20L);
    assertThat(r.resolve(relative("abs", 0x5010L)).moduleIndex()).isZero();
    assertThat(r.resolve(relative("ABS", 0x5010L)).moduleOffset()).isEqualTo(0x10L);
    assertThat(r.resolve(relative("REL:0", 7L)).moduleOffset()).isEqualTo(7L);
    for (String bad : List.of("rel:", "rel:-1", "rel:1x", "relative", "rel:99999999999", "")) {
      NativeModuleResolver.Resolution x = r.resolve(relative(bad, 0x20L));
      assertThat(x.kind()).as(bad).isEqualTo(NativeModuleResolver.Resolution.Kind.INVALID);
      assertThat(x.message()).as(bad).contains("neither abs nor rel:N");
    }
    assertThat(r.resolve(relative("rel:2", 0L)).message()).contains("rel:2 out of range");
    assertThat(r.resolve(relative("rel:0", null)).message()).contains("without instruction_addr");
    assertThat(r.resolve(relative("rel:0", -1L)).kind())
        .isEqualTo(NativeModuleResolver.Resolution.Kind.INVALID);
    // referenced whatever the offset, as a module_index is
    assertThat(r.referencedModuleOf(relative("rel:1", null))).isEqualTo(1);
    assertThat(r.referencedModuleOf(relative("rel:5", 0L))).isEqualTo(-1);
    assertThat(r.referencedModuleOf(relative("abs", 0x1010L))).isEqualTo(1);
    // a module_index wins over addr_mode
    NativeFrame both =
        NativeFrame.newBuilder(relative("rel:1", 3L)).setModuleIndex(0).setModuleOffset(9L).build();
    assertThat(r.resolve(both).moduleIndex()).isZero();
    for (NativeFrame f :
        List.of(
            relative("rel:1", 0x20L),
            relative("abs", 0x5010L),
            relative("rel:9", 0L),
            relative("rel:x", 0L),
            relative("rel:0", null),
            relative("rel:0", -5L),
            both)) {
      NativeModuleResolver.Resolution full = r.resolve(f);
      assertThat(r.moduleIndexOf(f))
          .as(f.toString())
          .isEqualTo(
              full.kind() == NativeModuleResolver.Resolution.Kind.RESOLVED
                  ? full.moduleIndex()
                  : -1);
    }
  }

  private static NativeModuleResolver.Resolution at(NativeModuleResolver r, long addr) {
    return r.resolve(frame(null, null, addr));
  }

  /**
   * A module without image_addr sorted as address 0 but failed the search's test, which then went
   * the wrong way: another module's addresses came out outside every module.
   */
  @Test
  void aModuleWithoutAnAddressDoesNotHideTheOthers() {
    NativeModuleResolver r =
        new NativeModuleResolver(List.of(moduleAt(null, 0x1000L), moduleAt(0x1000L, 0x1000L)));
    NativeModuleResolver.Resolution res = at(r, 0x1500);
    assertThat(res.kind()).isEqualTo(NativeModuleResolver.Resolution.Kind.RESOLVED);
    assertThat(res.moduleIndex()).isEqualTo(1);
    assertThat(res.moduleOffset()).isEqualTo(0x500);
  }

  /** Ranges that nest or overlap: the innermost (latest start) module containing the address. */
  @Test
  void nestedRangesResolveToTheModuleThatContainsTheAddress() {
    NativeModuleResolver r =
        new NativeModuleResolver(
            List.of(module(0x1000L, 0x100000L), module(0x2000L, 0x100L), module(0x3000L, 0x100L)));
    assertThat(at(r, 0x5000).moduleIndex()).as("inside the outer one only").isEqualTo(0);
    assertThat(at(r, 0x5000).moduleOffset()).isEqualTo(0x4000);
    assertThat(at(r, 0x2010).moduleIndex()).as("inside both: the inner one").isEqualTo(1);
    assertThat(at(r, 0x200000).kind())
        .isEqualTo(NativeModuleResolver.Resolution.Kind.UNKNOWN_MODULE);

    // one module over the whole space and 10,000 small ones: an address between the small ones
    // is the big one's, found in two checks (a walk back through every earlier module was linear)
    List<NativeModule> many = new ArrayList<>();
    many.add(moduleAt(0L, -1L));
    for (int i = 1; i <= 10_000; i++) {
      many.add(moduleAt(0x10000L * i, 0x100L));
    }
    NativeModuleResolver wide = new NativeModuleResolver(many);
    for (int i = 1; i <= 10_000; i++) {
      assertThat(at(wide, 0x10000L * i + 0x80).moduleIndex()).isEqualTo(i);
      assertThat(at(wide, 0x10000L * i + 0x800).moduleIndex()).isZero();
    }
  }

  /** An offset of 2^63 or more is refused as the module_index form refuses a negative offset. */
  @Test
  void offsetsBeyondSignedRangeAreInvalid() {
    NativeModuleResolver r = new NativeModuleResolver(List.of(module(0L, -1L)));
    assertThat(at(r, 0x8000000000000000L).kind())
        .isEqualTo(NativeModuleResolver.Resolution.Kind.INVALID);
    assertThat(at(r, 0x7fffffffffffffffL).kind())
        .isEqualTo(NativeModuleResolver.Resolution.Kind.RESOLVED);
  }
}
