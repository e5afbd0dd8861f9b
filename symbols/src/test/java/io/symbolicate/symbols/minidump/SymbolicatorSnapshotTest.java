package io.symbolicate.symbols.minidump;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.minidump.walk.CallStack;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
    walkMatchesSnapshot(supplier, Map.of());
  }

  /**
   * The same dump walked with the PDB itself (symbolic's crash.pdb: the same build, debug id
   * 3249D99D...1) in a symbol directory: the same frames, names with argument lists as the
   * {@code .sym} has them (the PDB's inline frames aside: that {@code .sym} has no INLINE
   * records), but the static function {@code __scrt_common_main_seh}, which the
   * older DIA of Breakpad's goldens (and {@code dump-syms}) names from its type and msdia140 (the
   * {@code .sym} Symbolicator's fixture has) names bare (docs/native.md).
   */
  @ParameterizedTest(name = "with crash.exe: {0}")
  @ValueSource(booleans = {false, true})
  void windowsDumpWithThePdbMatchesSymbolicatorsFrames(boolean withImage, @TempDir Path dir)
      throws Exception {
    Path win = SharedFixtures.fixtures("difs").resolve("getsentry-symbolic/testutils/windows");
    Path placed = dir.resolve("crash.pdb/3249D99D0C4049318610F4E4FB0B69361/crash.pdb");
    Files.createDirectories(placed.getParent());
    Files.copy(win.resolve("crash.pdb"), placed);
    if (withImage) {
      // the symbol-store layout of the image, by its code id
      Path exe = dir.resolve("crash.exe/5AB380779000/crash.exe");
      Files.createDirectories(exe.getParent());
      Files.copy(win.resolve("crash.exe"), exe);
    }
    SymbolDirectory symbols = new SymbolDirectory(dir);
    List<Frame> frames =
        walkMatchesSnapshot(
            symbols, Map.of("__scrt_common_main_seh", "static int __scrt_common_main_seh()"));
    // the inline frames name the functions llvm-symbolizer 19 names at those addresses
    // (--inlines --obj=crash.exe, the PDB beside it: 0x402a3d and 0x402d96), at its lines
    List<String> inlines = new ArrayList<>();
    for (Frame f : frames) {
      if (f.trust() == Trust.INLINE) {
        inlines.add(
            f.function().replaceAll("\\(.*$", "").replaceAll("^.*::", "") + ":" + f.sourceLine());
      }
    }
    assertThat(inlines).containsExactly("crash:24", "start:28", "invoke_main:78");
  }

  /** Checks the crashed thread's frames but inline ones against the snapshot; returns them all. */
  private static List<Frame> walkMatchesSnapshot(
      SymbolSupplier supplier, Map<String, String> renamed) throws Exception {
    ProcessState s;
    try (Minidump d = Minidump.open(ROOT.resolve("tests/fixtures/windows.dmp"))) {
      s = new MinidumpProcessor(supplier).process(d);
    }
    assertThat(s.crashReason()).isEqualTo("EXCEPTION_ACCESS_VIOLATION_WRITE");
    CallStack crashed = s.threads().get(s.requestingThread());
    List<Map<String, String>> theirs = snapshotFrames();
    assertThat(theirs).hasSize(5);
    // the PDB's inline frames (the .sym of Symbolicator's fixture has no INLINE records)
    List<Frame> frames = crashed.frames().stream().filter(f -> f.trust() != Trust.INLINE).toList();
    assertThat(frames).hasSize(theirs.size());
    for (int i = 0; i < theirs.size(); i++) {
      Frame f = frames.get(i);
      Map<String, String> g = theirs.get(i);
      assertThat(f.module().codeFile()).as("frame " + i).isEqualTo(g.get("package"));
      String function = g.getOrDefault("function", "");
      assertThat(f.function()).as("frame " + i).isEqualTo(renamed.getOrDefault(function, function));
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
    return crashed.frames();
  }
}
