package io.symbolicate.symbols.minidump;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.minidump.walk.CallStack;
import io.symbolicate.symbols.minidump.walk.Frame;
import io.symbolicate.symbols.minidump.walk.MinidumpProcessor;
import io.symbolicate.symbols.minidump.walk.SymbolDirectory;
import io.symbolicate.symbols.minidump.walk.Trust;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A synthetic Windows x64 dump of symbolic's {@code CrashWithException.exe} (its CodeView record,
 * time stamp and size, so the walker names it by the PDB's debug id), crashed three calls deep:
 * walked with the records {@code dump-syms} reads from the PDB and the image's {@code .pdata}
 * it gives the frames the walk with the image's Breakpad {@code .sym} (written by Breakpad's
 * dump_syms.exe) gives. The fixtures hold no Windows x64 minidump; the stack below follows the
 * CFA of each function in symbolic's CFI snapshot.
 */
class WindowsPdataWalkTest {
  private static final long BASE = 0x140000000L;
  private static final long STACK = 0x7ff000L;
  private static final String DEBUG_ID = "F535C5FB2AE84BB8AA206C30BE566C5A1";
  private static final Path WINDOWS =
      SharedFixtures.fixtures("difs").resolve("getsentry-symbolic/testutils/windows");

  /** rip in 0x1010 (CFA rsp + 80), called from 0x1120 (rsp + 48), called from 0x1150 (+ 64). */
  private static byte[] dump() throws Exception {
    DumpBuilder d = new DumpBuilder();
    ByteBuffer stack = DumpBuilder.le(0x1000);
    long sp = STACK + 0x100;
    stack.putLong((int) (sp + 80 - 8 - STACK), BASE + 0x1130); // 0x1010's return address
    stack.putLong((int) (sp + 80 + 48 - 8 - STACK), BASE + 0x1160); // 0x1120's
    stack.putLong((int) (sp + 80 + 48 + 64 - 8 - STACK), 0); // 0x1150's: the walk's end
    int stackRva = d.blob(stack.array());
    int ctx = d.amd64Context(BASE + 0x1030, sp, STACK + 0x800);
    ByteBuffer threads = DumpBuilder.le(4 + 48).putInt(0, 1);
    DumpBuilder.thread(threads, 4, 7, STACK, 0x1000, stackRva, ctx);
    ByteBuffer si = DumpBuilder.le(56);
    si.putShort(0, (short) 9).put(6, (byte) 1).putInt(20, 2); // amd64, Windows NT
    d.stream(Minidump.SYSTEM_INFO, si.array());
    d.stream(Minidump.THREAD_LIST, threads.array());
    d.stream(Minidump.MODULE_LIST, moduleList(d));
    d.stream(Minidump.EXCEPTION, d.exception(7, 0xc0000005, ctx));
    return d.build();
  }

  /** The module with the image's own CodeView record, time stamp and size of image. */
  private static byte[] moduleList(DumpBuilder d) throws Exception {
    byte[] exe = Files.readAllBytes(WINDOWS.resolve("CrashWithException.exe"));
    String text = new String(exe, StandardCharsets.ISO_8859_1);
    int rsds = text.indexOf("RSDS");
    int end = text.indexOf('\0', rsds + 24);
    byte[] cv = Arrays.copyOfRange(exe, rsds, end + 1);
    int nameRva = d.string("C:\\app\\CrashWithException.exe");
    int cvRva = d.blob(cv);
    ByteBuffer m = DumpBuilder.le(4 + 108);
    m.putInt(0, 1)
        .putLong(4, BASE)
        .putInt(12, 0x9000)
        .putInt(20, 0x5C9E0959)
        .putInt(24, nameRva)
        .putInt(80, cv.length)
        .putInt(84, cvRva);
    return m.array();
  }

  private static List<String> walk(Path symbols) throws Exception {
    CallStack s =
        new MinidumpProcessor(new SymbolDirectory(symbols))
            .process(Minidump.read(dump()))
            .threads()
            .get(0);
    List<String> frames = new ArrayList<>();
    for (Frame f : s.frames()) {
      frames.add(
          Long.toHexString(f.instruction())
              + " "
              + f.trust()
              + " rsp="
              + Long.toHexString(f.context().sp())
              + " "
              + (f.module() == null ? "-" : f.module().debugId())
              + " "
              + f.function());
    }
    return frames;
  }

  @Test
  void walkWithPdbAndImageEqualsWalkWithBreakpadsSym(@TempDir Path dir) throws Exception {
    Path files = dir.resolve("files");
    place(files, "CrashWithException.pdb/" + DEBUG_ID + "/CrashWithException.pdb", ".pdb");
    place(files, "CrashWithException.exe/5C9E09599000/CrashWithException.exe", ".exe");
    Path sym = dir.resolve("sym");
    place(sym, "CrashWithException.pdb/" + DEBUG_ID + "/CrashWithException.sym", ".pdb.sym");
    List<String> fromSym = walk(sym);
    List<String> fromFiles = walk(files);
    assertThat(fromSym).hasSizeGreaterThanOrEqualTo(3);
    assertThat(fromSym.get(0)).startsWith("140001030 CONTEXT rsp=7ff100 " + DEBUG_ID + " ");
    assertThat(fromSym.get(1)).startsWith("14000112f CFI rsp=7ff150 " + DEBUG_ID + " ");
    assertThat(fromSym.get(2)).startsWith("14000115f CFI rsp=7ff180 " + DEBUG_ID + " ");
    assertThat(fromSym.get(1)).contains(Trust.CFI.toString());
    assertThat(fromSym.get(2)).contains(Trust.CFI.toString());
    assertThat(fromFiles).isEqualTo(fromSym);
  }

  private static void place(Path dir, String key, String ext) throws Exception {
    Path p = dir.resolve(key);
    Files.createDirectories(p.getParent());
    Files.copy(WINDOWS.resolve("CrashWithException" + ext), p);
  }
}
