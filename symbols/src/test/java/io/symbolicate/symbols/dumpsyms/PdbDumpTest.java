package io.symbolicate.symbols.dumpsyms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code dump-syms} of a PDB against the {@code .sym} Breakpad's {@code dump_syms.exe} wrote,
 * compared field-wise as Mozilla's dump_syms test does (FILE ids mapped to names). FUNC names
 * and parameter sizes must equal the golden's (Mozilla's newer Breakpad writes {@code (anonymous
 * namespace)} where the PDB has {@code `anonymous namespace'}), but for the few listed in {@link
 * #MSDIA140_STATIC} and {@link #MSDIA140_PARAMETERS}. Accepted differences otherwise, each checked
 * to be only that: the lines of folded functions (golden {@code FUNC m}: DIA takes them from the
 * section contribution's module, we from the module of the chosen name); FILE records only for
 * files that lines use (DIA lists every file of every module); the size of a function's last line row in a few assembly functions
 * (dump_syms_regtest64's jmpuwind.asm: DIA runs it 12 bytes past the line table's code size, we
 * stop at it). See docs/native.md.
 */
class PdbDumpTest {
  static Path difs(String rel) {
    return SharedFixtures.fixtures("difs").resolve(rel);
  }

  record Func(long size, long parameterSize, boolean multiple, String name, List<String> lines) {}

  record Sym(
      List<String> head,
      Map<String, String> files,
      TreeMap<Long, Func> funcs,
      TreeMap<Long, String> publics,
      List<String> stackWin) {}

  static Sym parse(String text) {
    List<String> head = new ArrayList<>();
    Map<String, String> files = new HashMap<>();
    TreeMap<Long, Func> funcs = new TreeMap<>();
    TreeMap<Long, String> publics = new TreeMap<>();
    List<String> stackWin = new ArrayList<>();
    Func cur = null;
    for (String l : text.replace("\r", "").split("\n")) {
      if (l.startsWith("MODULE ") || l.startsWith("INFO CODE_ID")) {
        head.add(l);
      } else if (l.startsWith("FILE ")) {
        String[] p = l.split(" ", 3);
        files.put(p[1], p[2]);
      } else if (l.startsWith("FUNC ")) {
        String[] p = l.split(" ", 6);
        boolean m = p[1].equals("m");
        String[] q = m ? p : l.split(" ", 5);
        int i = m ? 2 : 1;
        String name = m ? l.split(" ", 6)[5] : q[4];
        cur =
            new Func(
                Long.parseLong(q[i + 1], 16),
                Long.parseLong(q[i + 2], 16),
                m,
                name,
                new ArrayList<>());
        funcs.put(Long.parseLong(q[i], 16), cur);
      } else if (l.startsWith("PUBLIC ")) {
        String[] p = l.replaceFirst("^PUBLIC m ", "PUBLIC ").split(" ", 4);
        publics.put(
            Long.parseLong(p[1], 16),
            (l.startsWith("PUBLIC m ") ? "m " : "") + Long.parseLong(p[2], 16) + " " + p[3]);
        cur = null;
      } else if (l.startsWith("STACK WIN ")) {
        // symbolic's crash.sym has the program strings' trailing space cut
        stackWin.add(l.stripTrailing());
        cur = null;
      } else if (l.startsWith("STACK") || l.startsWith("INLINE")) {
        cur = null;
      } else if (cur != null && !l.isEmpty()) {
        String[] p = l.split(" ");
        cur.lines()
            .add(p[0] + " " + p[1] + " " + p[2] + " " + files.getOrDefault(p[3], "?" + p[3]));
      }
    }
    return new Sym(head, files, funcs, publics, stackWin);
  }

  /**
   * Static functions that msdia140 (symbolic's crash.sym) names bare, where the older DIA of
   * Breakpad's goldens (CrashWithException, dump_syms_regtest*, omap_*), and we, write {@code
   * static RET name(ARGS)} from the type stream.
   */
  static final Map<String, Set<Long>> MSDIA140_STATIC =
      Map.of("crash.sym", Set.of(0x28d0L, 0x2be0L, 0x2c84L, 0x2c8cL, 0x2c9eL, 0x2f3bL, 0x31b6L));

  /**
   * FUNC parameter sizes msdia140 (symbolic's crash.sym) computes from {@code ebp}-relative
   * parameters of undecorated functions, where the older Breakpad of the other goldens writes 0
   * (as we do: only a C decoration gives a size here).
   */
  static final Map<String, Set<Long>> MSDIA140_PARAMETERS =
      Map.of("crash.sym", Set.of(0x1370L, 0x2210L, 0x2910L, 0x3476L));

  static String fileName(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /** The name without its trailing argument list. */
  static String withoutArguments(String name) {
    if (name.endsWith(")")) {
      int depth = 0;
      for (int i = name.length() - 1; i >= 0; i--) {
        char c = name.charAt(i);
        if (c == ')') {
          depth++;
        } else if (c == '(' && --depth == 0) {
          return name.substring(0, i);
        }
      }
    }
    return name;
  }

  /** The rows, the last one's size left out (see the class comment). */
  static List<String> withoutLastSize(List<String> rows) {
    List<String> out = new ArrayList<>(rows);
    if (!out.isEmpty()) {
      String[] p = out.get(out.size() - 1).split(" ", 4);
      out.set(out.size() - 1, p[0] + " _ " + p[2] + " " + p[3]);
    }
    return out;
  }

  static Sym dump(Path pdb) throws Exception {
    SymWriter w = new SymWriter();
    DumpSyms.dump(pdb, DumpSyms.Options.defaults(), w);
    StringWriter s = new StringWriter();
    w.writeTo(s);
    return parse(s.toString());
  }

  @ParameterizedTest
  @CsvSource({
    "getsentry-symbolic/testutils/windows/crash.pdb, getsentry-symbolic/testutils/windows/crash.sym, 92, 35",
    "getsentry-symbolic/testutils/windows/CrashWithException.pdb,"
        + " getsentry-symbolic/testutils/windows/CrashWithException.pdb.sym, 66, 33",
    "google-breakpad/src/tools/windows/dump_syms/testdata/dump_syms_regtest.pdb,"
        + " google-breakpad/src/tools/windows/dump_syms/testdata/dump_syms_regtest.sym, 158, 4",
    "google-breakpad/src/tools/windows/dump_syms/testdata/dump_syms_regtest64.pdb,"
        + " google-breakpad/src/tools/windows/dump_syms/testdata/dump_syms_regtest64.sym, 246, 2",
    "mozilla-dump_syms/windows/basic32-min.pdb, mozilla-dump_syms/windows/basic32-min.sym, 723, 2451",
    // OMAP: images whose functions, basic blocks were reordered or stretched after linking
    "google-breakpad/src/tools/windows/dump_syms/testdata/omap_reorder_funcs.pdb,"
        + " google-breakpad/src/tools/windows/dump_syms/testdata/omap_reorder_funcs.sym, 158, 4",
    "google-breakpad/src/tools/windows/dump_syms/testdata/omap_reorder_bbs.pdb,"
        + " google-breakpad/src/tools/windows/dump_syms/testdata/omap_reorder_bbs.sym, 953, 4",
    "google-breakpad/src/tools/windows/dump_syms/testdata/omap_stretched.pdb,"
        + " google-breakpad/src/tools/windows/dump_syms/testdata/omap_stretched.sym, 175, 4",
    "google-breakpad/src/tools/windows/dump_syms/testdata/omap_stretched_filled.pdb,"
        + " google-breakpad/src/tools/windows/dump_syms/testdata/omap_stretched_filled.sym, 158, 4"
  })
  void pdbGivesBreakpadsSym(String pdb, String sym, int funcs, int publics) throws Exception {
    Sym golden = parse(Files.readString(difs(sym)));
    Sym ours = dump(difs(pdb));
    assertThat(ours.head()).isEqualTo(golden.head());
    assertThat(ours.funcs()).hasSize(funcs);
    assertThat(ours.funcs().keySet()).isEqualTo(golden.funcs().keySet());
    int exact = 0;
    for (Map.Entry<Long, Func> e : golden.funcs().entrySet()) {
      Func g = e.getValue();
      Func o = ours.funcs().get(e.getKey());
      String at = sym + " FUNC " + Long.toHexString(e.getKey());
      assertThat(o.size()).as(at).isEqualTo(g.size());
      assertThat(o.multiple()).as(at).isEqualTo(g.multiple());
      if (MSDIA140_PARAMETERS.getOrDefault(fileName(sym), Set.of()).contains(e.getKey())) {
        assertThat(o.parameterSize()).as(at).isZero();
        assertThat(g.parameterSize()).as(at).isNotZero();
      } else {
        assertThat(o.parameterSize()).as(at).isEqualTo(g.parameterSize());
      }
      if (!g.multiple()) {
        // newer Breakpad (Mozilla's goldens) writes `anonymous namespace' as (anonymous namespace)
        String name = g.name().replace("(anonymous namespace)", "`anonymous namespace'");
        if (MSDIA140_STATIC.getOrDefault(fileName(sym), Set.of()).contains(e.getKey())) {
          assertThat(o.name()).as(at).startsWith("static ");
          assertThat(withoutArguments(o.name())).as(at).endsWith(" " + name);
          exact--;
        } else {
          assertThat(o.name()).as(at).isEqualTo(name);
        }
        exact++;
        assertThat(withoutLastSize(o.lines())).as(at).isEqualTo(withoutLastSize(g.lines()));
      }
    }
    assertThat(exact)
        .as(sym + ": FUNC names equal to the golden's")
        .isEqualTo(
            golden.funcs().values().stream().filter(f -> !f.multiple()).count()
                - MSDIA140_STATIC.getOrDefault(fileName(sym), Set.of()).size());
    TreeMap<Long, String> goldenPublics = new TreeMap<>(golden.publics());
    goldenPublics
        .values()
        .removeIf(n -> n.replaceFirst("^(m )?\\d+ ", "").startsWith("<unknown in "));
    assertThat(ours.publics()).hasSize(publics);
    assertThat(ours.publics().keySet()).isEqualTo(goldenPublics.keySet());
    for (Map.Entry<Long, String> e : goldenPublics.entrySet()) {
      String o = ours.publics().get(e.getKey());
      if (e.getValue().startsWith("m ")) {
        // several publics at one address: which name DIA answers with is not the smallest
        assertThat(o).startsWith("m ");
      } else { // C++ names too (MsvcDemangler's Breakpad form), with the parameter size
        assertThat(o).as(sym + " PUBLIC " + Long.toHexString(e.getKey())).isEqualTo(e.getValue());
      }
    }
    List<String> expected = expectedStackWin(golden);
    List<String> actual = ours.stackWin();
    if (expected.equals(golden.stackWin())) { // msdia140's golden: its base pointer flag
      expected = withoutOneRegisterBpFlag(expected);
      actual = withoutOneRegisterBpFlag(actual);
    } else { // the older DIA's order; through OMAP, records stay in original address order
      actual = new ArrayList<>(actual);
      actual.sort(BY_ADDRESS);
      expected.sort(BY_ADDRESS);
    }
    assertThat(actual).as(sym + " STACK WIN").isEqualTo(expected);
  }

  /** FPO records saving at most one register with their last field (the bp flag) blanked. */
  static List<String> withoutOneRegisterBpFlag(List<String> records) {
    List<String> out = new ArrayList<>();
    for (String l : records) {
      String[] p = l.split(" ");
      if (p[2].equals("0") && Long.parseLong(p[8], 16) <= 4) {
        p[p.length - 1] = "_";
      }
      out.add(String.join(" ", p));
    }
    return out;
  }

  /**
   * The golden's STACK WIN records as msdia140 gives them (Mozilla's basic32-min golden, and
   * symbolic's crash.sym, are already so): the older DIA of Breakpad's own goldens lists all
   * frame data records, then all FPO records, and keeps an FPO record at the address of a frame
   * data record (which no walk reads: Breakpad's walker prefers the frame data there); msdia140
   * merges them in address order without those. Also: msdia140 reports {@code
   * allocatesBasePointer} 0 for FPO records that set {@code fUseBP} but save at most one
   * register (basic32-min's golden); the older DIA, and we, report the flag.
   */
  static List<String> expectedStackWin(Sym golden) {
    java.util.Set<String> frameData = new java.util.HashSet<>();
    for (String l : golden.stackWin()) {
      if (l.startsWith("STACK WIN 4 ")) {
        frameData.add(l.split(" ")[3]);
      }
    }
    List<String> out = new ArrayList<>();
    for (String l : golden.stackWin()) {
      if (!(l.startsWith("STACK WIN 0 ") && frameData.contains(l.split(" ")[3]))) {
        out.add(l);
      }
    }
    out.sort(java.util.Comparator.comparingLong(l -> Long.parseLong(l.split(" ")[3], 16)));
    return out;
  }

  static final java.util.Comparator<String> BY_ADDRESS =
      java.util.Comparator.<String>comparingLong(l -> Long.parseLong(l.split(" ")[3], 16))
          .thenComparing(l -> l);

  @Test
  void anImageOfAnotherPdbIsRefused(@TempDir Path dir) throws Exception {
    Path pdb =
        Files.copy(
            difs("getsentry-symbolic/testutils/windows/crash.pdb"), dir.resolve("crash.pdb"));
    Path exe = difs("getsentry-symbolic/testutils/windows/CrashWithException.exe");
    assertThatThrownBy(
            () -> DumpSyms.dump(pdb, new DumpSyms.Options(false, null, exe), new SymWriter()))
        .isInstanceOf(DumpSymsException.class)
        .hasMessageContaining("is not the PDB's");
    // without an image beside it, no INFO CODE_ID
    assertThat(dump(pdb).head()).hasSize(1);
  }

  @Test
  void aDamagedPdbFailsWithAReason(@TempDir Path dir) throws Exception {
    byte[] b = Files.readAllBytes(difs("getsentry-symbolic/testutils/windows/crash.pdb"));
    Path cut = dir.resolve("cut.pdb");
    Files.write(cut, java.util.Arrays.copyOf(b, 8192));
    assertThatThrownBy(() -> DumpSyms.dump(cut, DumpSyms.Options.defaults(), new SymWriter()))
        .isInstanceOf(DumpSymsException.class)
        .hasMessageContaining("cut.pdb: PDB:");
  }
}
