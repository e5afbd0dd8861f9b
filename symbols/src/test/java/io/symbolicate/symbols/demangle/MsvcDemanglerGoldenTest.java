package io.symbolicate.symbols.demangle;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.demangle.MsvcDemangler.Style;
import io.symbolicate.symbols.pdb.PdbFile;
import io.symbolicate.symbols.pdb.PdbPublic;
import io.symbolicate.symbols.pdb.PdbSymbols;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The MSVC demangler against LLVM's {@code llvm-undname} 19: {@code undname-golden.tsv.gz} holds
 * llvm-undname's answers (produced by llvm-undname 19 on this project's machine by
 * scripts/msvc-demangle-golden.sh, not by us) for the decorated S_PUB32 names of every fixture
 * PDB, the hand-written corner cases of scripts/demangle-corpus/msvc-edge-cases.txt and 10,000
 * mutations of both. The Breakpad style is checked against the PUBLIC records Breakpad's {@code
 * dump_syms.exe} wrote for the fixture PDBs.
 */
class MsvcDemanglerGoldenTest {
  private static final String REFUSED = "error: Invalid mangled name";

  /** source, decorated name, llvm-undname's output. */
  private static final List<String[]> ROWS = new ArrayList<>();

  @BeforeAll
  static void load() throws IOException {
    try (InputStream in =
            MsvcDemanglerGoldenTest.class.getResourceAsStream("undname-golden.tsv.gz");
        BufferedReader r =
            new BufferedReader(
                new InputStreamReader(new GZIPInputStream(in), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        String[] f = line.split("\t", -1);
        assertThat(f).hasSize(3);
        ROWS.add(f);
      }
    }
  }

  private static String ours(String name) {
    String d = MsvcDemangler.demangle(name);
    return d == null ? REFUSED : d;
  }

  @Test
  void fixtureAndEdgeNamesAgreeWithLlvmUndname() {
    Map<String, int[]> counts = new TreeMap<>();
    List<String> wrong = new ArrayList<>();
    for (String[] f : ROWS) {
      if (f[0].equals("mutant")) {
        continue;
      }
      int[] c = counts.computeIfAbsent(f[0], k -> new int[2]);
      c[0]++;
      String got = ours(f[1]);
      if (got.equals(f[2])) {
        c[1]++;
      } else if (wrong.size() < 20) {
        wrong.add(f[1] + "\n  llvm-undname: " + f[2] + "\n  ours:         " + got);
      }
    }
    StringBuilder report = new StringBuilder("agreement with llvm-undname:");
    counts.forEach(
        (k, v) -> report.append(' ').append(k).append(' ').append(v[1]).append('/').append(v[0]));
    System.out.println(report);
    assertThat(counts.get("fixture")[0]).isGreaterThan(3000);
    assertThat(counts.get("edge")[0]).isGreaterThan(500);
    assertThat(wrong).as(report.toString()).isEmpty();
  }

  /**
   * Mutated names: what llvm-undname refuses we refuse; what it prints we print the same, or
   * refuse where llvm-undname reads past its own error (a later pointer type clears its error
   * flag, docs/native.md "MSVC demangling"): those stay under 2% of the names it prints.
   */
  @Test
  void mutatedNamesAgreeOrAreRefused() {
    int printed = 0;
    int refusedByUs = 0;
    List<String> wrong = new ArrayList<>();
    for (String[] f : ROWS) {
      if (!f[0].equals("mutant")) {
        continue;
      }
      String got = ours(f[1]);
      if (f[2].equals(REFUSED)) {
        if (!got.equals(REFUSED) && wrong.size() < 20) {
          wrong.add(f[1] + "\n  llvm-undname refuses; ours: " + got);
        }
        continue;
      }
      printed++;
      if (got.equals(REFUSED)) {
        refusedByUs++;
      } else if (!got.equals(f[2]) && wrong.size() < 20) {
        wrong.add(f[1] + "\n  llvm-undname: " + f[2] + "\n  ours:         " + got);
      }
    }
    System.out.println(
        "mutants llvm-undname prints: " + printed + ", of which we refuse " + refusedByUs);
    assertThat(wrong).isEmpty();
    assertThat(printed).isGreaterThan(3000);
    assertThat(refusedByUs).isLessThan(printed / 50);
  }

  private static List<Path> fixturePdbs() throws IOException {
    List<Path> pdbs = new ArrayList<>();
    try (Stream<Path> files = Files.walk(SharedFixtures.fixtures("difs"))) {
      for (Path p : (Iterable<Path>) files.sorted()::iterator) {
        if (Files.isRegularFile(p) && p.getFileName().toString().toLowerCase().endsWith(".pdb")) {
          byte[] head = new byte[24];
          try (InputStream in = Files.newInputStream(p)) {
            if (in.readNBytes(head, 0, 24) == 24
                && new String(head, StandardCharsets.ISO_8859_1)
                    .equals("Microsoft C/C++ MSF 7.00")) {
              pdbs.add(p);
            }
          }
        }
      }
    }
    return pdbs;
  }

  /** The golden's fixture rows are the decorated publics PdbSymbols reads from the fixtures. */
  @Test
  void everyFixturePublicIsInTheGolden() throws IOException {
    TreeSet<String> golden = new TreeSet<>();
    for (String[] f : ROWS) {
      if (f[0].equals("fixture")) {
        golden.add(f[1]);
      }
    }
    TreeSet<String> found = new TreeSet<>();
    List<Path> pdbs = fixturePdbs();
    assertThat(pdbs).hasSizeGreaterThanOrEqualTo(10);
    for (Path pdb : pdbs) {
      for (PdbPublic p : PdbSymbols.publics(PdbFile.open(pdb))) {
        if (p.name().startsWith("?")) {
          found.add(p.name());
        }
      }
    }
    assertThat(found).isEqualTo(golden);
  }

  /**
   * Every PUBLIC record Breakpad's {@code dump_syms.exe} wrote for a fixture PDB whose address
   * has one decorated S_PUB32 is our Breakpad form of that name, or the name itself where DIA
   * left it decorated (a cv-qualified function pointer in it).
   */
  @Test
  void breakpadPublicsAreOurBreakpadForm() throws IOException {
    int checked = 0;
    int raw = 0;
    List<String> wrong = new ArrayList<>();
    for (Path pdb : fixturePdbs()) {
      String base = pdb.getFileName().toString().replaceFirst("\\.pdb$", "");
      Path sym = pdb.resolveSibling(base + ".sym");
      if (!Files.isRegularFile(sym)) {
        continue;
      }
      Map<Long, List<String>> byRva = new HashMap<>();
      for (PdbPublic p : PdbSymbols.publics(PdbFile.open(pdb))) {
        byRva.computeIfAbsent(p.rva(), k -> new ArrayList<>()).add(p.name());
      }
      for (String line : Files.readAllLines(sym)) {
        if (!line.startsWith("PUBLIC ")) {
          continue;
        }
        String[] f = line.replaceFirst("^PUBLIC m ", "PUBLIC ").split(" ", 4);
        List<String> names = byRva.getOrDefault(Long.parseLong(f[1], 16), List.of());
        List<String> decorated = names.stream().filter(n -> n.startsWith("?")).toList();
        if (decorated.size() != 1) {
          continue;
        }
        String expected = f[3].strip();
        String got = MsvcDemangler.demangleOrSelf(decorated.get(0), Style.BREAKPAD);
        checked++;
        if (expected.equals(decorated.get(0))) {
          raw++;
        }
        if (!got.equals(expected) && wrong.size() < 20) {
          wrong.add(
              sym.getFileName()
                  + " "
                  + decorated.get(0)
                  + "\n  Breakpad: "
                  + expected
                  + "\n  ours:     "
                  + got);
        }
      }
    }
    System.out.println(
        "Breakpad PUBLIC names checked: " + checked + ", left decorated by DIA: " + raw);
    assertThat(checked).isGreaterThan(1000);
    assertThat(wrong).isEmpty();
  }
}
