package io.symbolicate.symbols.dumpsyms;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.nativecode.InlineFrame;
import io.symbolicate.symbols.nativecode.NativeFrame;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.testing.DifsCorpus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every address of the generated debug-file corpus (scripts/difs-corpus.sh) looked up in the
 * table converted from its binary and debug file: function, file, line and inline chain against
 * the answer at least two of llvm-symbolizer, addr2line and eu-addr2line agree on. The share that
 * agrees is reported per packaging, the rest listed by cause; the assertion is the floor the
 * converter reaches today (docs/native.md, "Generated debug-file corpus").
 */
class GeneratedDifsLookupTest {
  /** Share of the expected answers we must give exactly, in every packaging together. */
  static final double FLOOR = 0.99;

  /** Share we must give in the split DWARF packagings alone ({@code .dwo} files, {@code .dwp}). */
  static final double SPLIT_FLOOR = 0.99;

  @Test
  void lookupsAgreeWithTheSymbolizers() throws Exception {
    DifsCorpus corpus = DifsCorpus.loadOrSkip();
    Map<String, int[]> byPackaging = new TreeMap<>();
    Map<String, Integer> causes = new TreeMap<>();
    List<String> samples = new ArrayList<>();
    int total = 0;
    int agreed = 0;
    int splitTotal = 0;
    int splitAgreed = 0;
    Map<String, Integer> splitKinds = new TreeMap<>();
    for (DifsCorpus.Case c : corpus.cases()) {
      int[] counts =
          byPackaging.computeIfAbsent(c.packaging() + " " + c.compiler(), k -> new int[2]);
      Path binary = corpus.resolve(c.binary());
      Path debug = c.debugFile() == null ? null : corpus.resolve(c.debugFile());
      if (debug != null && !debug.toString().endsWith(".dSYM")) {
        // a debug link, a .dwp and a DWZ supplementary file are found from the binary
        debug = null;
      }
      NativeSymbolizer symbolizer;
      long base;
      try {
        DebugFileTables.Converted converted =
            DebugFileTables.convert(
                binary,
                new DumpSyms.Options(true, "macho".equals(c.format()) ? c.arch() : null, debug),
                NativeSymbols.Options.defaults());
        symbolizer = NativeSymbolizer.inMemory(converted.table());
        base = converted.report().identity().loadAddress();
      } catch (Exception e) {
        int n = c.addresses().size();
        total += n;
        counts[1] += n;
        causes.merge("conversion failed: " + e.getClass().getSimpleName(), n, Integer::sum);
        samples.add(c.id() + " " + c.packaging() + ": " + e.getMessage());
        continue;
      }
      boolean split = c.packaging().startsWith("split");
      if (split) {
        splitKinds.merge(
            c.packaging() + " " + c.compiler() + " " + dwarfVersion(c), 1, Integer::sum);
      }
      for (DifsCorpus.Lookup l : c.addresses()) {
        counts[1]++;
        List<String> ours = frames(symbolizer.lookup(l.addressValue() - base));
        List<String> theirs = expected(l.frames());
        boolean same = ours.equals(theirs);
        if (split) {
          splitTotal++;
          splitAgreed += same ? 1 : 0;
        }
        total++;
        if (same) {
          agreed++;
          counts[0]++;
        } else {
          String cause = cause(ours, theirs);
          causes.merge(cause, 1, Integer::sum);
          if (samples.size() < 40) {
            samples.add(
                c.packaging()
                    + " "
                    + c.compiler()
                    + " "
                    + l.address()
                    + ": ours "
                    + ours
                    + " expected "
                    + theirs);
          }
        }
      }
    }
    StringBuilder report = new StringBuilder();
    report.append(
        String.format("agreed %d of %d (%.2f%%)%n", agreed, total, 100.0 * agreed / total));
    byPackaging.forEach(
        (k, v) -> report.append(String.format("  %-40s %5d / %5d%n", k, v[0], v[1])));
    causes.forEach(
        (k, v) -> report.append("  cause ").append(k).append(": ").append(v).append('\n'));
    samples.forEach(s -> report.append("  e.g. ").append(s).append('\n'));
    report.append(
        String.format(
            "split DWARF: agreed %d of %d in %s%n", splitAgreed, splitTotal, splitKinds.keySet()));
    System.out.println(report);
    assertThat(total).isPositive();
    assertThat((double) agreed / total).as(report.toString()).isGreaterThanOrEqualTo(FLOOR);
    // the packagings issue 44 lists: .dwo and .dwp, gcc and clang, DWARF 4 (GNU) and 5
    assertThat(splitKinds.keySet())
        .as("split DWARF cases of the corpus")
        .anyMatch(k -> k.startsWith("split-dwo gcc"))
        .anyMatch(k -> k.startsWith("split-dwo clang"))
        .anyMatch(k -> k.startsWith("split-dwp gcc"))
        .anyMatch(k -> k.startsWith("split-dwp clang"))
        .anyMatch(k -> k.endsWith("dwarf4"))
        .anyMatch(k -> k.endsWith("dwarf5"));
    assertThat((double) splitAgreed / splitTotal)
        .as(report.toString())
        .isGreaterThanOrEqualTo(SPLIT_FLOOR);
  }

  private static String dwarfVersion(DifsCorpus.Case c) {
    return c.flags().contains("-gdwarf-4") ? "dwarf4" : "dwarf5";
  }

  private static String cause(List<String> ours, List<String> theirs) {
    if (ours.isEmpty()) {
      return "not found";
    }
    if (ours.size() != theirs.size()) {
      return "inline depth " + (ours.size() < theirs.size() ? "shorter" : "longer");
    }
    for (int i = 0; i < ours.size(); i++) {
      String[] a = ours.get(i).split("\t");
      String[] b = theirs.get(i).split("\t");
      if (!a[0].equals(b[0])) {
        return "function name";
      }
      if (!a[1].equals(b[1])) {
        return "file";
      }
      if (!a[2].equals(b[2])) {
        return "line";
      }
    }
    return "other";
  }

  /** Innermost first: the inlines, then the outer function. */
  static List<String> frames(NativeFrame f) {
    List<String> out = new ArrayList<>();
    if (f == null) {
      return out;
    }
    for (InlineFrame i : f.inlines()) {
      out.add(key(i.function(), i.file(), i.line()));
    }
    out.add(key(f.function(), f.file(), f.line()));
    return out;
  }

  static List<String> expected(List<DifsCorpus.Frame> frames) {
    List<String> out = new ArrayList<>();
    for (DifsCorpus.Frame f : frames) {
      out.add(key(f.function(), f.file(), f.line()));
    }
    return out;
  }

  private static String key(String function, String file, Integer line) {
    return functionKey(function)
        + "\t"
        + (file == null ? "" : Path.of(file).normalize().toString())
        + "\t"
        + (line == null ? 0 : line);
  }

  private static final Pattern OPERATOR =
      Pattern.compile("operator\\s*(<=>|<<=|>>=|<<|>>|<=|>=|->\\*|->|\\(\\)|\\[\\]|<|>)");
  private static final Pattern SUFFIX =
      Pattern.compile("(\\.(constprop|part|isra|cold|lto_priv|localalias|clone)(\\.\\d+)?)+$");

  /** The base name the corpus compares by: no qualifiers, template arguments or parameters. */
  static String functionKey(String name) {
    if (name == null || name.startsWith("??")) {
      return "";
    }
    String s = name.strip().replaceAll(" \\[clone [^\\]]*\\]", "");
    List<String> ops = new ArrayList<>();
    Matcher m = OPERATOR.matcher(s);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      ops.add("operator" + m.group(1));
      m.appendReplacement(sb, "\u0000" + (ops.size() - 1) + "\u0000");
    }
    m.appendTail(sb);
    StringBuilder top = new StringBuilder();
    int depth = 0;
    for (char ch : sb.toString().toCharArray()) {
      if (ch == '(' || ch == '<' || ch == '[') {
        depth++;
      } else if ((ch == ')' || ch == '>' || ch == ']') && depth > 0) {
        depth--;
      } else if (depth == 0) {
        top.append(ch);
      }
    }
    s = top.toString().replaceAll("\\b(const|volatile)\\s*$", "").strip();
    String[] parts = s.split("::");
    s = parts.length == 0 ? "" : parts[parts.length - 1].strip();
    String[] words = s.split(" ");
    s = words.length == 0 ? "" : words[words.length - 1];
    s = SUFFIX.matcher(s).replaceAll("");
    Matcher back = Pattern.compile("\u0000(\\d+)\u0000").matcher(s);
    StringBuilder out = new StringBuilder();
    while (back.find()) {
      back.appendReplacement(
          out, Matcher.quoteReplacement(ops.get(Integer.parseInt(back.group(1)))));
    }
    back.appendTail(out);
    return out.toString();
  }
}
