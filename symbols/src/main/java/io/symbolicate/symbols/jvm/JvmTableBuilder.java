package io.symbolicate.symbols.jvm;

import io.symbolicate.symbols.jvm.ParsedMapping.ParsedClass;
import io.symbolicate.symbols.jvm.ParsedMapping.ParsedMember;
import io.symbolicate.symbols.table.TablePage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/** Turns a parsed mapping into a {@link JvmTable}: resolves files and chains, sorts, pages. */
public final class JvmTableBuilder {
  /** Pages are cut once their encoding passes this size (they stay tens of KB). */
  static final int DEFAULT_PAGE_BYTES = 48 * 1024;

  private JvmTableBuilder() {}

  public static JvmTable build(ParsedMapping m) {
    return build(m, DEFAULT_PAGE_BYTES);
  }

  public static JvmTable build(ParsedMapping m, int pageBytes) {
    // sourceFile of every original class, so an inlined frame from another class gets its file.
    Map<String, String> sourceFiles = new HashMap<>(m.classes.size() * 2);
    for (ParsedClass c : m.classes) {
      if (c.sourceFile != null) {
        sourceFiles.putIfAbsent(c.original, c.sourceFile);
      }
    }
    int n = m.classes.size();
    long[] keys = new long[n];
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      keys[i] = JvmTable.classKey(m.classes.get(i).obfuscated);
      order[i] = i;
    }
    Arrays.sort(
        order,
        (a, b) -> {
          int c = Long.compareUnsigned(keys[a], keys[b]);
          return c != 0 ? c : m.classes.get(a).obfuscated.compareTo(m.classes.get(b).obfuscated);
        });

    List<TablePage> pages = new ArrayList<>();
    JvmPageFormat.Encoder enc = new JvmPageFormat.Encoder();
    long firstKey = 0; // the first page starts at key 0 so every key has a floor page
    int outlines = 0;
    for (int oi = 0; oi < n; oi++) {
      int i = order[oi];
      boolean keyChanges = oi > 0 && keys[order[oi - 1]] != keys[i];
      if (enc.classCount() > 0 && keyChanges && enc.estimatedSize() >= pageBytes) {
        pages.add(new TablePage(firstKey, enc.finish()));
        enc = new JvmPageFormat.Encoder();
        firstKey = keys[i];
      }
      JvmClass jc = resolve(m.classes.get(i), sourceFiles);
      for (MethodMapping mm : jc.methods()) {
        outlines += mm.outline() ? 1 : 0;
      }
      enc.add(keys[i], jc);
    }
    if (enc.classCount() > 0 || pages.isEmpty()) {
      pages.add(new TablePage(firstKey, enc.finish()));
    }
    JvmHeader h =
        new JvmHeader(
            JvmTable.FORMAT_VERSION,
            m.compiler,
            m.compilerVersion,
            m.minApi,
            m.mapId,
            m.mapHash,
            m.mapVersion,
            n,
            m.methodLineCount,
            pages.size(),
            m.malformedLines,
            m.duplicateClasses,
            outlines);
    return new JvmTable(h, h.encode(), List.copyOf(pages));
  }

  /**
   * A retracer straight from the parsed mapping, without encoding and decoding pages: one
   * in-memory page with every class. For one-shot command-line runs; lookups and results are the
   * same as through the table.
   */
  public static Retracer directRetracer(ParsedMapping m) {
    Map<String, String> sourceFiles = new HashMap<>(m.classes.size() * 2);
    for (ParsedClass c : m.classes) {
      if (c.sourceFile != null) {
        sourceFiles.putIfAbsent(c.original, c.sourceFile);
      }
    }
    int n = m.classes.size();
    long[] keys = new long[n];
    JvmClass[] classes = new JvmClass[n];
    Integer[] order = new Integer[n];
    // Classes resolve independently: use the common pool (the CLI has nothing else to do).
    IntStream.range(0, n)
        .parallel()
        .forEach(i -> classes[i] = resolve(m.classes.get(i), sourceFiles));
    int outlines = 0;
    for (int i = 0; i < n; i++) {
      keys[i] = JvmTable.classKey(m.classes.get(i).obfuscated);
      order[i] = i;
      for (MethodMapping mm : classes[i].methods()) {
        outlines += mm.outline() ? 1 : 0;
      }
    }
    Arrays.sort(
        order,
        (a, b) -> {
          int c = Long.compareUnsigned(keys[a], keys[b]);
          return c != 0 ? c : classes[a].obfuscatedName().compareTo(classes[b].obfuscatedName());
        });
    long[] sortedKeys = new long[n];
    JvmClass[] sorted = new JvmClass[n];
    for (int i = 0; i < n; i++) {
      sortedKeys[i] = keys[order[i]];
      sorted[i] = classes[order[i]];
    }
    JvmPage page = new JvmPage(sortedKeys, sorted);
    JvmHeader h =
        new JvmHeader(
            JvmTable.FORMAT_VERSION,
            m.compiler,
            m.compilerVersion,
            m.minApi,
            m.mapId,
            m.mapHash,
            m.mapVersion,
            n,
            m.methodLineCount,
            1,
            m.malformedLines,
            m.duplicateClasses,
            outlines);
    return new Retracer(h, key -> page);
  }

  /** The class as the retracer sees it: methods grouped by obfuscated name in file order. */
  static JvmClass resolve(ParsedClass c, Map<String, String> sourceFiles) {
    // A stable sort keeps file order within each obfuscated name.
    List<ParsedMember> sorted = new ArrayList<>(c.members);
    sorted.sort((a, b) -> a.obfName == b.obfName ? 0 : JvmClass.compare(a.obfName, b.obfName));
    List<MethodMapping> out = new ArrayList<>();
    int from = 0;
    while (from < sorted.size()) {
      int to = from + 1;
      while (to < sorted.size() && sorted.get(to).obfName.equals(sorted.get(from).obfName)) {
        to++;
      }
      List<ParsedMember> list = sorted.subList(from, to);
      from = to;
      MemberEntry[] entries = new MemberEntry[list.size()];
      boolean outline = false;
      ParsedMember prev = null;
      long[] sigs = new long[entries.length];
      int nsigs = 0;
      Map<Long, Integer> ids = entries.length > 16 ? new HashMap<>() : null;
      for (int k = 0; k < entries.length; k++) {
        ParsedMember pm = list.get(k);
        boolean chainStart =
            prev == null
                || pm.obfEnd < 0
                || prev.obfStart != pm.obfStart
                || prev.obfEnd != pm.obfEnd;
        String file = pm.origClass == null ? c.sourceFile : sourceFiles.get(pm.origClass);
        int id = -1;
        if (ids != null) {
          Integer known = ids.putIfAbsent(pm.signature, nsigs);
          id = known == null ? nsigs++ : known;
        } else {
          for (int s = 0; s < nsigs && id < 0; s++) {
            id = sigs[s] == pm.signature ? s : -1;
          }
          if (id < 0) {
            sigs[nsigs] = pm.signature;
            id = nsigs++;
          }
        }
        entries[k] =
            new MemberEntry(
                pm.obfStart,
                pm.obfEnd,
                pm.origStart,
                pm.origEnd,
                pm.origClass,
                pm.name,
                file,
                id,
                pm.synthesized,
                chainStart,
                pm.rules == null ? MemberEntry.NO_RULES : pm.rules.toArray(new RewriteRule[0]),
                pm.outlinePositions);
        outline |= pm.outline;
        prev = pm;
      }
      out.add(MethodMapping.of(list.get(0).obfName, entries, outline));
    }
    MethodMapping[] methods = out.toArray(new MethodMapping[0]);
    return JvmClass.of(c.obfuscated, c.original, c.sourceFile, c.synthesized, methods);
  }
}
