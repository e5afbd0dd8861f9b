package io.symbolicate.symbols.minidump.walk;

import static io.symbolicate.symbols.cfi.CfiBytes.ops;
import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.cfi.CfiArch;
import io.symbolicate.symbols.cfi.CfiBytes;
import io.symbolicate.symbols.cfi.DwarfCfiReader;
import io.symbolicate.symbols.minidump.MemoryReader;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.nativecode.NativeTableBuilder;
import io.symbolicate.symbols.table.TablePage;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The records the unwind-info readers write go through the stack walker's own machinery: into a
 * native table, out as rule sets, parsed by {@link CfiRules} and evaluated by {@link Postfix}
 * against a stack, giving the caller's registers the DWARF program describes.
 */
class DwarfCfiWalkTest {
  static final long STACK = 0x7fff0000L;

  static ModuleSymbols table(CfiBytes ehFrame, long address) throws Exception {
    List<TablePage> pages = new ArrayList<>();
    try (NativeTableBuilder b = new NativeTableBuilder()) {
      b.module("Linux", "x86_64", "0", "synthetic");
      DwarfCfiReader.Summary s =
          DwarfCfiReader.readSection(
              ehFrame.section(".eh_frame", address), true, CfiArch.X86_64, 0, b);
      assertThat(s.skipped()).isZero();
      NativeTable t = new NativeTable(b.finish(pages::add, 0), pages);
      return SymbolDirectory.of(NativeSymbolizer.inMemory(t));
    }
  }

  @Test
  void framePointerFunctionUnwindsAtEveryStage() throws Exception {
    // CIE: CFA = rsp + 8, rip at CFA - 8; FDE (pcrel sdata4) at 0x1000 for 0x30 bytes:
    // push rbp; mov rbp, rsp; ... ; leave (CFA back to rsp + 8)
    CfiBytes sec = new CfiBytes().entry(CfiBytes.ehCie(1, "zR", 0x1B, ops(0x0c, 7, 8, 0x90, 1)));
    int idField = sec.size() + 4;
    sec.entry(
        new CfiBytes()
            .u32(idField)
            .u32(0x1000 - (0x2000 + idField + 4))
            .u32(0x30)
            .uleb(0)
            .bytes(ops(0x41, 0x0e, 16, 0x86, 2, 0x43, 0x0d, 6, 0x02, 0x20, 0x0c, 7, 8)));
    ModuleSymbols module = table(sec, 0x2000);

    // the stack (see caller): saved rbp 0x1111 at STACK, return address 0x401234 above it
    // at entry: the return address is at rsp
    Map<String, Long> caller = caller(module, 0x1000, Map.of("$rsp", STACK + 8, "$rbp", 7L));
    assertThat(caller).containsEntry(".ra", 0x401234L).containsEntry(".cfa", STACK + 16);
    // after push rbp: CFA = rsp + 16, rbp saved at CFA - 16
    caller = caller(module, 0x1002, Map.of("$rsp", STACK, "$rbp", 7L));
    assertThat(caller)
        .containsEntry(".ra", 0x401234L)
        .containsEntry(".cfa", STACK + 16)
        .containsEntry("$rbp", 0x1111L);
    // in the body: CFA = rbp + 16, whatever rsp is
    caller = caller(module, 0x1010, Map.of("$rsp", STACK - 0x40, "$rbp", STACK));
    assertThat(caller)
        .containsEntry(".ra", 0x401234L)
        .containsEntry(".cfa", STACK + 16)
        .containsEntry("$rbp", 0x1111L);
    // after leave: CFA = rsp + 8 again
    caller = caller(module, 0x1028, Map.of("$rsp", STACK + 8, "$rbp", 0x1111L));
    assertThat(caller).containsEntry(".ra", 0x401234L).containsEntry(".cfa", STACK + 16);
    assertThat(module.cfiRules(0x1030)).isNull(); // past the FDE
  }

  static Map<String, Long> caller(ModuleSymbols module, long rel, Map<String, Long> regs) {
    CfiRules rules = module.cfiRules(rel);
    assertThat(rules).as("rules at %x", rel).isNotNull();
    ByteBuffer stack = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
    stack.putLong(0, 0x1111);
    stack.putLong(8, 0x401234);
    return rules.callerRegisters(new HashMap<>(regs), MemoryReader.of(STACK, stack.array()), 8);
  }
}
