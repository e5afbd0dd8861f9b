package io.symbolicate.symbols.minidump;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.minidump.walk.CodeModule;
import io.symbolicate.symbols.minidump.walk.Frame;
import io.symbolicate.symbols.minidump.walk.MinidumpProcessor;
import io.symbolicate.symbols.minidump.walk.ProcessState;
import io.symbolicate.symbols.minidump.walk.SymbolDirectory;
import io.symbolicate.symbols.minidump.walk.SymbolSupplier;
import io.symbolicate.symbols.minidump.walk.Trust;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sentry Symbolicator's Windows x86 minidump with its crash.exe symbols: the crashed thread has
 * the frames of its snapshot (module, function, line, how each was found). Symbolicator's
 * fixture names the Breakpad text file {@code crash.pdb}, so it is handed over directly.
 */
class SymbolicatorSnapshotTest {
  static final Path ROOT = SharedFixtures.fixtures("minidump").resolve("symbolicator");

  /** The frames of the snapshot's first stack trace, as key/value maps. */
  static List<Map<String, String>> snapshotFrames() throws Exception {
    List<Map<String, String>> out = new ArrayList<>();
    int threads = 0;
    Map<String, String> cur = null;
    for (String line :
        Files.readAllLines(
            ROOT.resolve(
                "crates/symbolicator-native/tests/integration/snapshots/"
                    + "integration__process_minidump__minidump_windows.snap"))) {
      String t = line.trim();
      if (t.startsWith("- thread_id:")) {
        threads++;
        continue;
      }
      if (threads != 1) {
        continue;
      }
      if (t.startsWith("- status:")) {
        cur = new LinkedHashMap<>();
        out.add(cur);
        t = t.substring(2);
      }
      int c = t.indexOf(": ");
      if (cur != null && c > 0) {
        String v = t.substring(c + 2);
        if (v.startsWith("\"")) {
          v = v.substring(1, v.length() - 1).replace("\\\\", "\\");
        }
        cur.put(t.substring(0, c), v);
      }
    }
    return out;
  }

  @Test
  void windowsDumpMatchesSymbolicatorsFrames() throws Exception {
    Path sym =
        ROOT.resolve(
            "tests/fixtures/symbols/crash.pdb/3249D99D0C4049318610F4E4FB0B69361/crash.pdb");
    SymbolSupplier supplier =
        (CodeModule m) -> {
          if (!m.debugFile().endsWith("crash.pdb")) {
            return null;
          }
          try {
            return SymbolDirectory.of(NativeSymbolizer.inMemory(NativeSymbols.convert(sym)));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        };
    List<Frame> frames = crashedThread(supplier);
    assertThat(frames).noneMatch(Frame::isInline);
    assertMatchesSnapshot(frames);
  }

  /**
   * The same dump walked from the debug files themselves, symbolic's {@code crash.pdb} and {@code
   * crash.exe} (the module's ids) in the symbol-store layout, instead of the {@code .sym}: the
   * same walk. The PDB also holds the inline sites the {@code .sym} has no records for ({@code
   * crash} and {@code start} inlined into {@code main}, {@code invoke_main} into {@code
   * __scrt_common_main_seh}); they come as extra frames on top of their caller's frame, which
   * answers as the snapshot's, and name what llvm-symbolizer names at those addresses.
   */
  @Test
  void windowsDumpWalkedFromPdbAndExeMatchesTheSymWalk(@TempDir Path dir) throws Exception {
    Path win = SharedFixtures.fixtures("difs").resolve("getsentry-symbolic/testutils/windows");
    Path pdb = dir.resolve("crash.pdb/3249D99D0C4049318610F4E4FB0B69361/crash.pdb");
    Path exe = dir.resolve("crash.exe/5AB380779000/crash.exe");
    Files.createDirectories(pdb.getParent());
    Files.createDirectories(exe.getParent());
    Files.copy(win.resolve("crash.pdb"), pdb);
    Files.copy(win.resolve("crash.exe"), exe);
    List<Frame> frames = crashedThread(new SymbolDirectory(dir));
    assertMatchesSnapshot(frames.stream().filter(f -> !f.isInline()).toList());
    List<String> inlines = new ArrayList<>();
    for (Frame f : frames) {
      if (f.isInline()) {
        inlines.add(f.function() + ":" + f.sourceLine());
      }
    }
    // llvm-symbolizer 19 --inlines --obj=crash.exe (PDB beside it) at 0x402a3d and 0x402d96
    assertThat(inlines)
        .containsExactly("?A0xc3a0617d::crash:24", "?A0xc3a0617d::start:28", "invoke_main:78");
  }

  private static List<Frame> crashedThread(SymbolSupplier supplier) throws Exception {
    ProcessState s;
    try (Minidump d = Minidump.open(ROOT.resolve("tests/fixtures/windows.dmp"))) {
      s = new MinidumpProcessor(supplier).process(d);
    }
    assertThat(s.crashReason()).isEqualTo("EXCEPTION_ACCESS_VIOLATION_WRITE");
    return s.threads().get(s.requestingThread()).frames();
  }

  private static void assertMatchesSnapshot(List<Frame> frames) throws Exception {
    List<Map<String, String>> theirs = snapshotFrames();
    assertThat(theirs).hasSize(5);
    assertThat(frames).hasSize(theirs.size());
    for (int i = 0; i < theirs.size(); i++) {
      Frame f = frames.get(i);
      Map<String, String> g = theirs.get(i);
      assertThat(f.module().codeFile()).as("frame " + i).isEqualTo(g.get("package"));
      assertThat(f.function()).as("frame " + i).isEqualTo(g.getOrDefault("function", ""));
      if (g.containsKey("lineno")) {
        assertThat(f.sourceLine()).as("frame " + i).isEqualTo(Integer.parseInt(g.get("lineno")));
        assertThat(f.sourceFile()).as("frame " + i).isEqualTo(g.get("abs_path"));
      }
      Trust want =
          switch (g.get("trust")) {
            case "context" -> Trust.CONTEXT;
            case "cfi" -> Trust.CFI;
            case "fp" -> Trust.FRAME_POINTER;
            case "scan" -> Trust.SCAN;
            default -> Trust.NONE;
          };
      assertThat(f.trust()).as("frame " + i).isEqualTo(want);
      long addr = Long.parseUnsignedLong(g.get("instruction_addr").substring(2), 16);
      // Symbolicator prints the caller-adjusted address of symbolicated callers
      assertThat(addr).as("frame " + i).isIn(f.returnAddress(), f.instruction());
    }
  }
}
