package io.symbolicate.symbols.pdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.dumpsyms.PdbDumper;
import io.symbolicate.symbols.dumpsyms.SymWriter;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Inline sites of symbolic's crash.pdb against symbolic's {@code test_objects__pdb_functions}
 * snapshot (its first ten functions with their inlinee trees): each inlinee's name with its
 * argument list and {@code const} as symbolic prints it (from the IPI id and the TPI types),
 * address, size and lines (address, file name, line), at its depth.
 */
class PdbInlinesTest {
  static final String SNAPSHOT =
      "getsentry-symbolic/snapshots/symbolic-debuginfo/tests/snapshots/test_objects__pdb_functions.snap";

  static Path difs(String rel) {
    return SharedFixtures.fixtures("difs").resolve(rel);
  }

  /** "depth addr name size" and "depth addr file:line" rows of the snapshot's inlinees. */
  static Map<Long, List<String>> snapshot() throws Exception {
    Map<Long, List<String>> out = new HashMap<>();
    List<String> cur = null;
    for (String l : Files.readAllLines(difs(SNAPSHOT))) {
      int indent = l.length() - l.stripLeading().length();
      String t = l.strip();
      if (t.startsWith("> ")) {
        int colon = t.indexOf(':');
        long addr = Long.parseLong(t.substring(4, colon), 16);
        int sizeAt = t.lastIndexOf(" (0x");
        String name = t.substring(colon + 2, sizeAt);
        String size = t.substring(sizeAt + 4, t.length() - 1);
        if (indent == 0) {
          cur = new ArrayList<>();
          out.put(addr, cur);
        } else {
          cur.add((indent / 2 - 1) + " " + Long.toHexString(addr) + " " + name + " " + size);
        }
      } else if (t.startsWith("0x") && indent > 2 && cur != null) {
        int colon = t.indexOf(':');
        String loc = t.substring(colon + 2, t.indexOf(" ("));
        cur.add((indent / 2 - 2) + " " + t.substring(2, colon) + " " + loc);
      }
    }
    return out;
  }

  @Test
  void crashPdbInlineesAreSymbolicsInlinees() throws Exception {
    Map<Long, List<String>> expected = snapshot();
    assertThat(expected).hasSize(10);
    PdbFile pdb = PdbFile.open(difs("getsentry-symbolic/testutils/windows/crash.pdb"));
    PdbSignatures ids = PdbSignatures.of(pdb);
    ByteBuffer names = PdbLines.stringTable(pdb);
    Map<Long, List<String>> ours = new HashMap<>();
    PdbInlines.Exports exports = new PdbInlines.Exports(pdb, names);
    for (PdbModule m : pdb.modules()) {
      for (PdbInlines.Site s : PdbInlines.read(pdb, m, names, exports)) {
        if (!expected.containsKey(s.procedureRva())) {
          continue;
        }
        List<String> rows = ours.computeIfAbsent(s.procedureRva(), k -> new ArrayList<>());
        long start = Long.MAX_VALUE;
        long end = 0;
        for (PdbLine l : s.lines()) {
          start = Math.min(start, l.rva());
          end = Math.max(end, l.rva() + l.size());
        }
        rows.add(
            s.depth()
                + " "
                + Long.toHexString(start)
                + " "
                + ids.inlinee(s.inlinee())
                + " "
                + Long.toHexString(end - start));
        for (PdbLine l : s.lines()) {
          String file = l.file().substring(l.file().lastIndexOf('\\') + 1);
          rows.add(s.depth() + " " + Long.toHexString(l.rva()) + " " + file + ":" + l.line());
        }
      }
    }
    for (Map.Entry<Long, List<String>> e : expected.entrySet()) {
      assertThat(blocks(ours.getOrDefault(e.getKey(), List.of())))
          .as("inlinees of " + Long.toHexString(e.getKey()))
          .isEqualTo(blocks(e.getValue()));
    }
  }

  /**
   * Each inlinee as one string (its callers' headers, its header, its lines), sorted: symbolic
   * lists an inlinee's callees in an order of its own (the first level reversed), we in symbol
   * order; the tree is the same.
   */
  static List<String> blocks(List<String> rows) {
    List<String> out = new ArrayList<>();
    List<String> path = new ArrayList<>();
    StringBuilder cur = null;
    for (String r : rows) {
      String[] p = r.split(" ", 3);
      int depth = Integer.parseInt(p[0]);
      if (p[2].contains(":") && !p[2].contains(" ")) { // a line row: "depth addr file:line"
        cur.append(" | ").append(p[1]).append(' ').append(p[2]);
        continue;
      }
      if (cur != null) {
        out.add(cur.toString());
      }
      while (path.size() > depth) {
        path.remove(path.size() - 1);
      }
      path.add(p[1] + " " + p[2]);
      cur = new StringBuilder(String.join(" > ", path));
    }
    if (cur != null) {
      out.add(cur.toString());
    }
    out.sort(null);
    return out;
  }

  /**
   * dump-syms with inlines: for each inlinee of the snapshot, an INLINE record of its depth and
   * origin at its first address, whose call line is the caller's line there in the snapshot,
   * and no other INLINE record.
   */
  @Test
  void dumpSymsWritesSymbolicsInlineesAsInlineRecords() throws Exception {
    PdbFile pdb = PdbFile.open(difs("getsentry-symbolic/testutils/windows/crash.pdb"));
    SymWriter w = new SymWriter();
    PdbDumper.records(pdb, w, true);
    StringWriter text = new StringWriter();
    w.writeTo(text);
    Map<String, String> origins = new HashMap<>();
    Map<Long, List<String>> inlines = new HashMap<>();
    List<String> cur = null;
    for (String l : text.toString().split("\n")) {
      String[] p = l.split(" ");
      if (l.startsWith("INLINE_ORIGIN ")) {
        origins.put(p[1], l.split(" ", 3)[2]);
      } else if (l.startsWith("FUNC ")) {
        cur = new ArrayList<>();
        inlines.put(Long.parseLong(p[1].equals("m") ? p[2] : p[1], 16), cur);
      } else if (l.startsWith("INLINE ")) {
        cur.add(p[1] + " " + p[5] + " " + origins.get(p[4]) + " " + p[2]);
      }
    }
    int checked = 0;
    for (Map.Entry<Long, List<String>> e : snapshotCalls().entrySet()) {
      List<String> ours = inlines.getOrDefault(e.getKey(), List.of());
      List<String> expected = new ArrayList<>();
      for (String s : e.getValue()) {
        expected.add(s.substring(0, s.lastIndexOf(' ')));
      }
      assertThat(ours)
          .as("INLINE records of " + Long.toHexString(e.getKey()))
          .containsExactlyInAnyOrderElementsOf(expected);
      checked += ours.size();
    }
    assertThat(checked).isGreaterThan(50);
  }

  /**
   * Per snapshot function, "depth first-address name call-line _" of each inlinee:
   * the call line is the caller's line row at or before the inlinee's first address.
   */
  static Map<Long, List<String>> snapshotCalls() throws Exception {
    Map<Long, List<String>> out = new HashMap<>();
    List<String> cur = null;
    List<List<long[]>> lineStack = new ArrayList<>(); // rows {addr, line} of each open level
    for (String l : Files.readAllLines(difs(SNAPSHOT))) {
      int indent = l.length() - l.stripLeading().length();
      String t = l.strip();
      if (t.startsWith("> ")) {
        int level = indent / 2; // 0: the function
        int colon = t.indexOf(':');
        long addr = Long.parseLong(t.substring(4, colon), 16);
        String name = t.substring(colon + 2, t.lastIndexOf(" (0x"));
        while (lineStack.size() > level) {
          lineStack.remove(lineStack.size() - 1);
        }
        if (level == 0) {
          cur = new ArrayList<>();
          out.put(addr, cur);
        } else {
          long call = 0;
          for (long[] r : lineStack.get(level - 1)) {
            if (r[0] <= addr) {
              call = r[1];
            }
          }
          cur.add((level - 1) + " " + Long.toHexString(addr) + " " + name + " " + call + " _");
        }
        lineStack.add(new ArrayList<>());
      } else if (t.startsWith("0x") && !lineStack.isEmpty()) {
        int colon = t.indexOf(':');
        String loc = t.substring(colon + 2, t.indexOf(" ("));
        lineStack
            .get(lineStack.size() - 1)
            .add(
                new long[] {
                  Long.parseLong(t.substring(2, colon), 16),
                  Long.parseLong(loc.substring(loc.lastIndexOf(':') + 1))
                });
      }
    }
    return out;
  }
}
