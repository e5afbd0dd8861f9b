package io.symbolicate.symbols.cfi;

import static io.symbolicate.symbols.cfi.CfiGoldenTest.difs;
import static io.symbolicate.symbols.cfi.CfiGoldenTest.golden;
import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.objects.PeFile;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The PE unwind reader against the peers: symbolic's CFI snapshots of a Windows x64 and a
 * Windows arm64 executable line for line, Mozilla dump_syms' x64 golden (written with an older
 * symbolic that clamped save offsets above the frame to 0), and the CFA Breakpad's own
 * dump_syms.exe computes for every x64 function.
 */
class PeUnwindGoldenTest {
  private static final String SNAPSHOTS =
      "getsentry-symbolic/snapshots/symbolic-cfi/tests/snapshots/";

  private static CfiRecords read(String file, DwarfCfiReader.Summary[] summary) throws Exception {
    PeFile pe = PeFile.open(difs().resolve(file));
    CfiRecords out = new CfiRecords();
    summary[0] = PeUnwindReader.read(pe, out);
    return out;
  }

  @ParameterizedTest
  @CsvSource({
    "getsentry-symbolic/testutils/windows/CrashWithException.exe, test_cfi__cfi_pe_windows.snap"
  })
  void peMatchesSymbolicSnapshot(String file, String golden) throws Exception {
    DwarfCfiReader.Summary[] s = new DwarfCfiReader.Summary[1];
    CfiRecords out = read(file, s);
    assertThat(s[0].reasons()).isEmpty();
    assertThat(out.text()).isEqualTo(golden(SNAPSHOTS + golden));
  }

  /**
   * symbolic's arm64 snapshot, with three differences taken out: its delta records are padded
   * ({@code STACK CFI      1054}), it writes nothing for packed entries, and its INIT sizes are
   * bits of the {@code .xdata} RVA (goblin reads the packed-entry length field of every entry);
   * ours are the function lengths llvm-readobj reads from the {@code .xdata} and packed entries.
   */
  @Test
  void arm64MatchesSymbolicSnapshotButForSizes() throws Exception {
    DwarfCfiReader.Summary[] s = new DwarfCfiReader.Summary[1];
    CfiRecords out = read("getsentry-symbolic/testutils/windows/arm64/test.exe", s);
    assertThat(s[0].reasons()).isEmpty();
    String golden = golden(SNAPSHOTS + "test_cfi__cfi_pe_arm64.snap").replaceAll(" +", " ");
    String noSizes = "(STACK CFI INIT [0-9a-f]+) [0-9a-f]+";
    Llvm llvm = Llvm.read();
    // symbolic writes nothing for packed entries: leave ours out
    StringBuilder unpacked = new StringBuilder();
    boolean keep = true;
    for (String line : out.lines) {
      if (line.startsWith("STACK CFI INIT ")) {
        keep = !llvm.packed.containsKey(Long.parseLong(line.split(" ")[3], 16));
      }
      if (keep) {
        unpacked.append(line).append('\n');
      }
    }
    assertThat(unpacked.toString().replaceAll(noSizes, "$1"))
        .isEqualTo(golden.replaceAll(noSizes, "$1"));
    // every function with records: the length llvm-readobj reads from the .xdata or packed entry
    int inits = 0;
    for (String line : out.lines) {
      if (line.startsWith("STACK CFI INIT ")) {
        String[] f = line.split(" ");
        long start = Long.parseLong(f[3], 16);
        assertThat(Long.parseLong(f[4], 16)).as(line).isEqualTo(llvm.lengths.get(start));
        inits++;
      }
    }
    assertThat(inits).isGreaterThan(650);
  }

  /** The trimmed output of llvm-readobj --unwind for symbolic's arm64 test.exe (see the file). */
  record Llvm(Map<Long, Long> lengths, Map<Long, String> packed, Map<String, String> prologs) {
    static Llvm read() throws Exception {
      Llvm l = new Llvm(new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>());
      try (var in =
          PeUnwindGoldenTest.class.getResourceAsStream("llvm-readobj-unwind-arm64-test-exe.txt")) {
        for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
          if (line.startsWith("F ")) {
            String[] f = line.split(" ", 4);
            long at = Long.parseLong(f[1], 16);
            l.lengths.put(at, Long.parseLong(f[2], 16));
            if (f.length == 4) {
              l.packed.put(at, f[3]);
            }
          } else if (line.startsWith("P ")) {
            String[] f = line.substring(2).split(" = ", 2);
            l.prologs.put(f[0], f[1]);
          }
        }
      }
      return l;
    }
  }

  /**
   * Each packed entry of test.exe stands for the prolog llvm-readobj synthesizes for it (the
   * instructions, in unwind order, rendered from our codes as llvm prints them).
   */
  @Test
  void arm64PackedEntriesAreTheCanonicalProlog() throws Exception {
    Llvm llvm = Llvm.read();
    PeFile pe = PeFile.open(difs().resolve("getsentry-symbolic/testutils/windows/arm64/test.exe"));
    long[] dir = pe.exceptionDirectory();
    ByteBuffer pdata = pe.rvaBytes(dir[0], dir[1], "pdata");
    int packed = 0;
    for (int at = 0; at < pdata.limit(); at += 8) {
      long begin = pdata.getInt(at) & 0xffffffffL;
      long data = pdata.getInt(at + 4) & 0xffffffffL;
      if ((data & 3) == 0) {
        assertThat(llvm.packed).doesNotContainKey(begin);
        continue;
      }
      String fields = llvm.packed.get(begin);
      assertThat(fields).as(Long.toHexString(begin)).isNotNull();
      assertThat(render(Arm64UnwindReader.packedCodes(data)))
          .as(Long.toHexString(begin) + " " + fields)
          .isEqualTo(llvm.prologs.get(fields));
      packed++;
    }
    assertThat(packed).isEqualTo(llvm.packed.size()).isGreaterThan(400);
  }

  /** Our codes (last first) as llvm-readobj prints the instructions they stand for. */
  static String render(List<int[]> codes) {
    List<String> out = new ArrayList<>();
    for (int[] c : codes) {
      String t = c[1] == 0 ? "x" : c[1] == 1 ? "d" : "q";
      String at = c[5] == 1 ? "[sp, #-" + c[3] + "]!" : "[sp, #" + c[3] + "]";
      String first = c[1] == 0 && c[2] == 30 ? "lr" : t + c[2];
      String second = c[1] == 0 && c[2] + 1 == 30 ? "lr" : t + (c[2] + 1);
      out.add(
          switch (c[0]) {
            case 0 -> "sub sp, sp, #" + c[3];
            case 1, 5 ->
                c[4] == 1 ? "stp " + first + ", " + second + ", " + at : "str " + first + ", " + at;
            case 2 -> "stp x" + c[2] + ", lr, " + at;
            case 4 -> c[1] == 1 ? "mov x29, sp" : c[1] == 2 ? "pacibsp" : "nop";
            default -> "?";
          });
    }
    out.add("end");
    return String.join("; ", out);
  }

  /**
   * Mozilla's golden predates symbolic's fix #645: a register saved into the caller's home space
   * (above the CFA) was clamped to {@code .cfa 0 - ^}; with that clamp applied to our output the
   * two agree line for line.
   */
  @Test
  void x64MatchesMozillaGoldenUpToTheOldClamp() throws Exception {
    DwarfCfiReader.Summary[] s = new DwarfCfiReader.Summary[1];
    CfiRecords out = read("mozilla-dump_syms/windows/dump_syms_regtest64.exe", s);
    assertThat(s[0].skipped()).isZero();
    String clamped = out.text().replaceAll("\\.cfa -\\d+ - \\^", ".cfa 0 - ^");
    assertThat(clamped).isEqualTo(golden("mozilla-dump_syms/windows/dump_syms_regtest64.sym"));
    assertThat(out.text()).contains("$rsi: .cfa -16 - ^"); // the clamp did matter here
  }

  /**
   * Breakpad's dump_syms.exe writes each x64 function's CFA in a STACK CFI delta at its start;
   * it ignores frame registers (its CFA is always {@code $rsp} plus the whole allocation), so
   * the few functions with one are compared only by being there.
   */
  @ParameterizedTest
  @CsvSource({
    "google-breakpad/src/tools/windows/dump_syms/testdata/dump_syms_regtest64.exe,"
        + " google-breakpad/src/tools/windows/dump_syms/testdata/dump_syms_regtest64.sym",
    "google-breakpad/src/tools/windows/dump_syms/testdata/pe_only_symbol_test.dll,"
        + " google-breakpad/src/tools/windows/dump_syms/testdata/pe_only_symbol_test.sym"
  })
  void x64CfaMatchesBreakpad(String file, String sym) throws Exception {
    Map<String, String> breakpad = new LinkedHashMap<>();
    Pattern delta = Pattern.compile("^STACK CFI ([0-9a-f]+) (\\.cfa: \\$rsp \\d+ \\+)$");
    for (String line : Files.readAllLines(difs().resolve(sym))) {
      Matcher m = delta.matcher(line);
      if (m.matches()) {
        breakpad.put(m.group(1), m.group(2));
      }
    }
    DwarfCfiReader.Summary[] s = new DwarfCfiReader.Summary[1];
    CfiRecords out = read(file, s);
    Map<String, String> ours = new LinkedHashMap<>();
    Pattern init =
        Pattern.compile("^STACK CFI INIT ([0-9a-f]+) [0-9a-f]+ (\\.cfa: \\S+ \\d+ \\+).*");
    for (String line : out.lines) {
      Matcher m = init.matcher(line);
      assertThat(m.matches()).as(line).isTrue();
      ours.put(m.group(1), m.group(2));
    }
    assertThat(breakpad).hasSizeGreaterThan(100);
    assertThat(ours.keySet()).containsExactlyElementsOf(breakpad.keySet());
    ours.values().removeIf(cfa -> !cfa.startsWith(".cfa: $rsp "));
    assertThat(ours).hasSizeGreaterThan(breakpad.size() - 3);
    breakpad.keySet().retainAll(ours.keySet());
    assertThat(ours).isEqualTo(breakpad);
  }

  /** symbolic's fixture whose only function chains to itself: refused, not followed forever. */
  @Test
  void chainedLoopIsRefused() throws Exception {
    DwarfCfiReader.Summary[] s = new DwarfCfiReader.Summary[1];
    CfiRecords out = read("getsentry-symbolic/testutils/windows/cfi_chained_loop.exe", s);
    assertThat(out.lines).isEmpty();
    assertThat(s[0].skipped()).isEqualTo(1);
    assertThat(s[0].reasons()).singleElement().asString().contains("unwind chain loops back");
  }

  /** The pe-unwind fuzz seed is CrashWithException.exe's unwind info moved into a flat image. */
  @Test
  void fuzzSeedHoldsRealUnwindInfo() throws Exception {
    byte[] seed =
        getClass()
            .getResourceAsStream("CfiFuzzTestsInputs/peUnwind/seed-crashwithexception-x64")
            .readAllBytes();
    CfiRecords out = new CfiRecords();
    PeUnwindReader.readX64(
        new FlatImage(Arrays.copyOfRange(seed, 5, seed.length)),
        (seed[1] & 0xff) | (seed[2] & 0xff) << 8,
        (seed[3] & 0xff) | (seed[4] & 0xff) << 8,
        out);
    assertThat(out.text()).isEqualTo(golden(SNAPSHOTS + "test_cfi__cfi_pe_windows.snap"));
  }
}
