package io.symbolicate.symbols.demangle;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.demangle.Demangler.Style;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The demangler against binutils' {@code c++filt} 2.40: {@code cxxfilt-golden.tsv.gz} holds
 * c++filt's answers in its four forms for ~18,000 names (the fixtures' symbols, a g++-built
 * corpus, libstdc++'s dynamic symbols, rustc-built legacy and v0 Rust names), written by
 * scripts/demangle-golden.sh. Where c++filt leaves a name as it is, the demangler must refuse
 * it (null).
 */
class DemanglerGoldenTest {
  private static final String GOLDEN = "cxxfilt-golden.tsv.gz";

  /** source, mangled, c++filt, c++filt -p, c++filt -i, c++filt -i -p. */
  private static final List<String[]> ROWS = new ArrayList<>();

  private static final Map<String, String[]> BY_NAME = new LinkedHashMap<>();

  @BeforeAll
  static void load() throws IOException {
    try (InputStream in = DemanglerGoldenTest.class.getResourceAsStream(GOLDEN);
        BufferedReader r =
            new BufferedReader(
                new InputStreamReader(new GZIPInputStream(in), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        String[] f = line.split("\t", -1);
        assertThat(f).hasSize(6);
        ROWS.add(f);
        BY_NAME.put(f[1], f);
      }
    }
  }

  private static String ours(String mangled, Style style) {
    String d = Demangler.demangle(mangled, style);
    return d == null ? mangled : d;
  }

  /** Agreement per source for one style; mismatches listed (at most 20) in the failure. */
  private static void agree(Style style, int column) {
    Map<String, int[]> counts = new TreeMap<>();
    List<String> wrong = new ArrayList<>();
    for (String[] f : ROWS) {
      int[] c = counts.computeIfAbsent(f[0], k -> new int[2]);
      c[0]++;
      String got = ours(f[1], style);
      if (got.equals(f[column])) {
        c[1]++;
      } else if (wrong.size() < 20) {
        wrong.add(f[1] + "\n  c++filt: " + f[column] + "\n  ours:    " + got);
      }
    }
    StringBuilder report = new StringBuilder(style + ":");
    counts.forEach(
        (k, v) -> report.append(' ').append(k).append(' ').append(v[1]).append('/').append(v[0]));
    System.out.println(report);
    assertThat(wrong).as(report.toString()).isEmpty();
  }

  @Test
  void verboseEqualsCxxfilt() {
    agree(Style.VERBOSE, 2);
  }

  @Test
  void verboseNameOnlyEqualsCxxfiltNoParams() {
    agree(Style.VERBOSE_NAME_ONLY, 3);
  }

  @Test
  void shortEqualsCxxfiltNoVerbose() {
    agree(Style.SHORT, 4);
  }

  @Test
  void nameOnlyEqualsCxxfiltNoVerboseNoParams() {
    agree(Style.NAME_ONLY, 5);
  }

  /**
   * A generic lambda's {@code auto} parameters ({@code T_} in its signature) inside a function
   * that is no template: ceph-osd's names failed on them. Expected: binutils 2.40 c++filt.
   */
  @Test
  void genericLambdaOutsideATemplateEqualsCxxfilt() {
    assertThat(
            Demangler.demangle(
                "_ZZN2PG13add_num_bytesElENKUlRT_RT0_E_clI12pg_history_t9pg_stat_tEEDaS1_S3_"))
        .isEqualTo(
            "auto PG::add_num_bytes(long)::{lambda(auto:1&, auto:2&)#1}::operator()"
                + "<pg_history_t, pg_stat_t>(pg_history_t&, pg_stat_t&) const");
    assertThat(
            Demangler.demangle(
                "_ZSt13__invoke_implIbRZN2PG13add_num_bytesElEUlRT_RT0_E_JR12pg_history_t"
                    + "R9pg_stat_tEES1_St14__invoke_otherOS3_DpOT1_"))
        .isEqualTo(
            "bool std::__invoke_impl<bool, PG::add_num_bytes(long)::{lambda(auto:1&, auto:2&)#1}&,"
                + " pg_history_t&, pg_stat_t&>(std::__invoke_other, PG::add_num_bytes(long)::"
                + "{lambda(auto:1&, auto:2&)#1}&, pg_history_t&, pg_stat_t&)");
  }

  @Test
  void goldenCoversEverySource() {
    Map<String, Integer> perSource = new TreeMap<>();
    for (String[] f : ROWS) {
      perSource.merge(f[0], 1, Integer::sum);
    }
    // thousands of names, from every source the script names
    assertThat(perSource.keySet())
        .contains("fixture", "corpus", "edge", "libstdcxx", "rust-legacy", "rust-v0");
    assertThat(perSource.get("libstdcxx")).isGreaterThan(5000);
    assertThat(ROWS.size()).isGreaterThan(15000);
  }

  /**
   * Every name found in the fixture files today, by the scan the script uses (printable runs of
   * {@code [A-Za-z0-9_$.]} starting {@code _Z} or {@code _R}), is in the golden file and
   * demangles to c++filt's answer: a fixture added later without a regenerated golden fails here.
   */
  @Test
  void everyFixtureNameAgreesWithCxxfilt() throws IOException {
    Path difs = SharedFixtures.fixtures("difs");
    TreeSet<String> found = new TreeSet<>();
    try (Stream<Path> files = Files.walk(difs)) {
      for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
        scan(Files.readAllBytes(file), found);
      }
    }
    assertThat(found.size()).isGreaterThan(1000);
    List<String> missing = new ArrayList<>();
    int demangled = 0;
    for (String name : found) {
      String[] f = BY_NAME.get(name);
      if (f == null) {
        missing.add(name);
        continue;
      }
      assertThat(ours(name, Style.VERBOSE)).as(name).isEqualTo(f[2]);
      assertThat(ours(name, Style.SHORT)).as(name).isEqualTo(f[4]);
      if (!f[2].equals(name)) {
        demangled++;
      }
    }
    assertThat(missing)
        .as("names not in the golden file: run scripts/demangle-golden.sh")
        .isEmpty();
    System.out.println(found.size() + " fixture names, " + demangled + " demangled by c++filt");
    assertThat(demangled).isGreaterThan(5000);
  }

  /**
   * The peers' own demanglings: every FUNC/PUBLIC name with a parameter list in a peer's {@code
   * .sym} golden (Breakpad's dump_syms on Linux and Mac, Mozilla's dump_syms) is our short form of
   * a mangled name found in the binary it was dumped from. Two names of symbolic's Mac {@code
   * crash.sym} are the exceptions, both quirks of the old demangler Breakpad's Mac dump_syms used:
   * a data symbol's clone suffix printed as {@code (.0)} ({@code c++filt} refuses that name) and
   * {@code MDMemoryDescriptor const&&&} where the reference collapses to {@code const&}.
   */
  @Test
  void peerSymNamesAreOurDemanglings() throws IOException {
    Path difs = SharedFixtures.fixtures("difs");
    String mac = "google-breakpad/src/client/mac/handler/testcases/testdata/";
    String[][] pairs = {
      {"mozilla-dump_syms/linux/basic.full", "mozilla-dump_syms/linux/basic.full.sym"},
      {mac + "dump_syms_dwarf_data", mac + "dump_syms_i386_breakpad.sym"},
      {"getsentry-symbolic/testutils/linux/crash", "getsentry-symbolic/testutils/linux/crash.sym"},
      {"getsentry-symbolic/testutils/macos/crash", "getsentry-symbolic/testutils/macos/crash.sym"},
    };
    int checked = 0;
    List<String> notOurs = new ArrayList<>();
    for (String[] pair : pairs) {
      TreeSet<String> mangled = new TreeSet<>();
      scan(Files.readAllBytes(difs.resolve(pair[0])), mangled);
      TreeSet<String> ours = new TreeSet<>();
      for (String m : mangled) {
        String d = Demangler.demangle(m);
        if (d != null) {
          ours.add(d);
        }
      }
      for (String line : Files.readAllLines(difs.resolve(pair[1]), StandardCharsets.UTF_8)) {
        String name = symName(line);
        if (name == null || !name.contains("(")) {
          continue;
        }
        checked++;
        if (!ours.contains(name)) {
          notOurs.add(pair[1] + ": " + name);
        }
      }
    }
    System.out.println(checked + " peer .sym names checked");
    assertThat(checked).isGreaterThan(600);
    assertThat(notOurs)
        .containsExactlyInAnyOrder(
            "getsentry-symbolic/testutils/macos/crash.sym: google_breakpad::gProtectedData (.0)",
            "getsentry-symbolic/testutils/macos/crash.sym: void std::__1::vector<MDMemoryDescriptor,"
                + " google_breakpad::PageStdAllocator<MDMemoryDescriptor> >::__push_back_slow_path"
                + "<MDMemoryDescriptor const&>(MDMemoryDescriptor const&&&)");
  }

  /** The name of a FUNC or PUBLIC line, or null. */
  private static String symName(String line) {
    String[] f = line.split(" ", -1);
    int skip;
    if (f[0].equals("FUNC")) {
      skip = 4;
    } else if (f[0].equals("PUBLIC")) {
      skip = 3;
    } else {
      return null;
    }
    if (f.length > 1 && f[1].equals("m")) {
      skip++;
    }
    int at = 0;
    for (int i = 0; i < skip; i++) {
      at = line.indexOf(' ', at) + 1;
      if (at == 0) {
        return null;
      }
    }
    return line.substring(at);
  }

  /** What {@code grep -aoE '_[ZR][A-Za-z0-9_$.]+'} finds, with C-locale character classes. */
  static void scan(byte[] b, TreeSet<String> out) {
    int i = 0;
    while (i + 2 < b.length) {
      if (b[i] == '_' && (b[i + 1] == 'Z' || b[i + 1] == 'R') && allowed(b[i + 2])) {
        int j = i + 2;
        while (j < b.length && allowed(b[j])) {
          j++;
        }
        out.add(new String(b, i, j - i, StandardCharsets.ISO_8859_1));
        i = j;
      } else {
        i++;
      }
    }
  }

  private static boolean allowed(byte c) {
    return (c >= 'A' && c <= 'Z')
        || (c >= 'a' && c <= 'z')
        || (c >= '0' && c <= '9')
        || c == '_'
        || c == '$'
        || c == '.';
  }
}
