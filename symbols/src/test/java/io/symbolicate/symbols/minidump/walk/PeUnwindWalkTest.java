package io.symbolicate.symbols.minidump.walk;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.cfi.CfiRecords;
import io.symbolicate.symbols.cfi.PeUnwindReader;
import io.symbolicate.symbols.minidump.MemoryReader;
import io.symbolicate.symbols.objects.PeFile;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The x64 records read from a PE image's {@code .pdata} unwind a frame in the walker's CFI rules
 * as the records Breakpad's {@code dump_syms.exe} wrote into the image's {@code .sym} do: at
 * each function's entry the caller's stack pointer ({@code .cfa}) and return address are the
 * same for every function without a frame register (with one, Breakpad's rules read {@code
 * $rsp} where ours read the frame register).
 */
class PeUnwindWalkTest {
  private static final long STACK = 0x7ff000L;

  @Test
  void pdataRecordsUnwindAsBreakpadsSym() throws Exception {
    Path windows = SharedFixtures.fixtures("difs").resolve("getsentry-symbolic/testutils/windows");
    Map<Long, CfiRules> sym = new TreeMap<>();
    for (String line : Files.readAllLines(windows.resolve("CrashWithException.pdb.sym"))) {
      if (line.startsWith("STACK CFI INIT ")) {
        String[] f = line.split(" ", 6);
        CfiRules r = new CfiRules();
        assertThat(r.apply(f[5])).isTrue();
        sym.put(Long.parseLong(f[3], 16), r);
      } else if (line.startsWith("STACK CFI ")) {
        String[] f = line.split(" ", 4);
        assertThat(sym.get(Long.parseLong(f[2], 16)).apply(f[3])).isTrue();
      }
    }
    Map<Long, CfiRules> ours = new TreeMap<>();
    Map<Long, String> text = new HashMap<>();
    PeUnwindReader.read(
        PeFile.open(windows.resolve("CrashWithException.exe")),
        new CfiRecords() {
          @Override
          public void stackCfiInit(long address, long size, byte[] buf, int off, int len) {
            CfiRules r = new CfiRules();
            String rules = new String(buf, off, len, StandardCharsets.US_ASCII);
            assertThat(r.apply(rules)).as(rules).isTrue();
            ours.put(address, r);
            text.put(address, rules);
          }
        });
    assertThat(ours.keySet()).isEqualTo(sym.keySet());
    ByteBuffer stack = ByteBuffer.allocate(0x2000).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 0x2000; i += 8) {
      stack.putLong(i, 0x140000000L + i * 3L); // a distinct word in every slot
    }
    MemoryReader memory = MemoryReader.of(STACK, stack.array());
    int compared = 0;
    for (Map.Entry<Long, CfiRules> e : sym.entrySet()) {
      if (!text.get(e.getKey()).startsWith(".cfa: $rsp ")) {
        continue;
      }
      Map<String, Long> callee = new HashMap<>();
      callee.put("$rsp", STACK + 0x100);
      callee.put("$rip", 0x140000000L + e.getKey());
      callee.put("$rbp", STACK + 0x1800);
      Map<String, Long> theirs = e.getValue().callerRegisters(callee, memory, 8);
      Map<String, Long> mine = ours.get(e.getKey()).callerRegisters(callee, memory, 8);
      String at = "function 0x" + Long.toHexString(e.getKey());
      assertThat(mine.get(".cfa")).as(at).isEqualTo(theirs.get(".cfa"));
      assertThat(mine.get(".ra")).as(at).isEqualTo(theirs.get(".ra"));
      compared++;
    }
    assertThat(compared).isGreaterThan(35);
  }

  /**
   * {@code minidump walk --symbols DIR} over a PDB and its image (Breakpad's native layout): the
   * module's rules come from the image's {@code .pdata} and unwind each function's entry as the
   * Breakpad {@code .sym} of the same build does.
   */
  @Test
  void symbolDirectoryUsesThePdbsImage(@TempDir Path dir) throws Exception {
    Path windows = SharedFixtures.fixtures("difs").resolve("getsentry-symbolic/testutils/windows");
    String debugId = "F535C5FB2AE84BB8AA206C30BE566C5A1";
    String codeId = "5C9E09599000";
    place(dir, "CrashWithException.pdb/" + debugId + "/CrashWithException.pdb", windows, ".pdb");
    place(dir, "CrashWithException.exe/" + codeId + "/CrashWithException.exe", windows, ".exe");
    Path symDir = dir.resolve("sym");
    place(
        symDir,
        "CrashWithException.pdb/" + debugId + "/CrashWithException.sym",
        windows,
        ".pdb.sym");
    CodeModule module =
        new CodeModule(
            0x140000000L,
            0x9000,
            "C:\\app\\CrashWithException.exe",
            codeId,
            "C:\\app\\CrashWithException.pdb",
            debugId,
            "",
            false);
    ModuleSymbols fromFiles = new SymbolDirectory(dir).find(module);
    ModuleSymbols fromSym = new SymbolDirectory(symDir).find(module);
    assertThat(fromFiles).isNotNull();
    assertThat(fromSym).isNotNull();
    ByteBuffer stack = ByteBuffer.allocate(0x2000).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 0x2000; i += 8) {
      stack.putLong(i, 0x140000000L + i * 3L);
    }
    MemoryReader memory = MemoryReader.of(STACK, stack.array());
    int compared = 0;
    for (String line : Files.readAllLines(windows.resolve("CrashWithException.pdb.sym"))) {
      if (!line.startsWith("STACK CFI INIT ")) {
        continue;
      }
      long rel = Long.parseLong(line.split(" ")[3], 16);
      CfiRules ours = fromFiles.cfiRules(rel);
      CfiRules theirs = fromSym.cfiRules(rel);
      assertThat(ours).as("%x", rel).isNotNull();
      Map<String, Long> callee = new HashMap<>();
      callee.put("$rsp", STACK + 0x100);
      callee.put("$rip", 0x140000000L + rel);
      callee.put("$rbp", STACK + 0x100); // where a frame register would point at entry
      Map<String, Long> a = ours.callerRegisters(callee, memory, 8);
      Map<String, Long> b = theirs.callerRegisters(callee, memory, 8);
      if (a.get(".cfa").equals(b.get(".cfa"))) {
        assertThat(a.get(".ra")).as("%x", rel).isEqualTo(b.get(".ra"));
        compared++;
      }
    }
    assertThat(compared).isGreaterThan(35);
  }

  private static void place(Path dir, String key, Path windows, String ext) throws Exception {
    Path p = dir.resolve(key);
    Files.createDirectories(p.getParent());
    Files.copy(windows.resolve("CrashWithException" + ext), p);
  }

  /**
   * arm64 records as symbolic writes them ({@code .sp}, {@code .x29}) unwind in the walker's
   * rules: symbolic's snapshot records for 0x1050 and 0x1054 ({@code stp x29, x30, [sp, #-16]!}
   * then {@code mov x29, sp}: CFA = sp + 16, x29 and the return address saved below it).
   */
  @Test
  void arm64DottedNamesUnwind() {
    CfiRules r = new CfiRules();
    assertThat(r.apply(".cfa: .sp 16 + .x29: .cfa -16 + ^ .x30: .cfa -8 + ^ .ra: .cfa -8 + ^"))
        .isTrue();
    assertThat(r.apply(".cfa: .sp 16 +")).isTrue();
    ByteBuffer stack = ByteBuffer.allocate(0x100).order(ByteOrder.LITTLE_ENDIAN);
    stack.putLong(0x40, 0x7ff0a0L).putLong(0x48, 0x140001234L);
    Map<String, Long> callee = new HashMap<>();
    callee.put("sp", STACK + 0x40);
    Map<String, Long> caller = r.callerRegisters(callee, MemoryReader.of(STACK, stack.array()), 8);
    assertThat(caller.get(".cfa")).isEqualTo(STACK + 0x50);
    assertThat(caller.get(".ra")).isEqualTo(0x140001234L);
    assertThat(caller.get("x29")).isEqualTo(0x7ff0a0L);
  }
}
