package io.symbolicate.symbols.js;

import io.symbolicate.symbols.table.TablePage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Turns a parsed {@link SourceMap} into a {@link JsTable}. */
public final class JsTableBuilder {
  /**
   * Segments per mapping page: ~160 KB encoded, ~200 KB decoded plus names. Random lookups
   * measured the same with 4,096 (within noise); larger pages mean fewer records and less name
   * duplication across pages.
   */
  public static final int SEGMENTS_PER_PAGE = 16384;

  /**
   * Encoded bytes above which a mapping page is halved: a page stores the names and URLs its
   * segments use, so a map with long names would otherwise make pages too large for one record.
   */
  public static final int MAX_MAPPING_PAGE_BYTES = 512 * 1024;

  /** Source text per content page. */
  public static final int CONTENT_CHARS_PER_PAGE = 64 * 1024;

  /** Lines longer than this are cut when stored; context lines are trimmed far shorter anyway. */
  public static final int MAX_STORED_LINE = 16 * 1024;

  private final int segmentsPerPage;

  public JsTableBuilder() {
    this(SEGMENTS_PER_PAGE);
  }

  public JsTableBuilder(int segmentsPerPage) {
    if (segmentsPerPage < 1) {
      throw new IllegalArgumentException("segmentsPerPage must be positive");
    }
    this.segmentsPerPage = segmentsPerPage;
  }

  public JsTable build(SourceMap map) {
    return build(map, null);
  }

  /**
   * Builds the table; with the minified file's text, the enclosing function scopes of every
   * position are inferred from it (named through the map) and stored in the mapping pages.
   */
  public JsTable build(SourceMap map, String minifiedSource) {
    List<MinifiedScopes.Interval> scopes =
        minifiedSource == null
            ? null
            : MinifiedScopes.extract(minifiedSource, (line, col) -> originalName(map, line, col));
    long[] scopeKeys =
        scopes == null
            ? null
            : scopes.stream()
                .mapToLong(iv -> JsTable.positionKey(iv.line(), iv.column()))
                .toArray();
    // deduplicate sources: same resolved URL and same content is one table source; null stays
    // distinct
    List<String> urls = map.sources();
    int[] global = new int[urls.size()];
    List<String> tableUrls = new ArrayList<>();
    List<String> tableContent = new ArrayList<>();
    BitSet tableIgnored = new BitSet();
    Map<List<Object>, Integer> seen = new HashMap<>();
    for (int i = 0; i < urls.size(); i++) {
      String u = urls.get(i);
      String c = map.sourcesContent().get(i);
      Integer g = u == null ? null : seen.get(Arrays.asList(u, c, map.ignored().get(i)));
      if (g == null) {
        g = tableUrls.size();
        tableUrls.add(u);
        tableContent.add(c);
        if (map.ignored().get(i)) {
          tableIgnored.set(g);
        }
        if (u != null) {
          seen.put(Arrays.asList(u, c, map.ignored().get(i)), g);
        }
      }
      global[i] = g;
    }
    String[] urlArray = tableUrls.toArray(new String[0]);

    Mappings m = map.mappings();
    List<TablePage> pages = new ArrayList<>();
    List<int[]> ranges = new ArrayList<>();
    int from = 0;
    while (from < m.size) {
      int to = Math.min(m.size, from + segmentsPerPage);
      // never split equal generated positions across pages: page keys must be distinct
      while (to < m.size
          && m.genLine[to] == m.genLine[to - 1]
          && m.genCol[to] == m.genCol[to - 1]) {
        to++;
      }
      ranges.add(new int[] {from, to, 0});
      from = to;
    }
    for (int r = 0; r < ranges.size(); ) {
      int[] range = ranges.get(r);
      long next =
          r + 1 < ranges.size()
              ? JsTable.positionKey(m.genLine[ranges.get(r + 1)[0]], m.genCol[ranges.get(r + 1)[0]])
              : -1L;
      byte[] bytes =
          MappingPage.encode(
              m,
              range[0],
              range[1],
              global,
              urlArray,
              tableIgnored,
              map.names(),
              next,
              scopes == null
                  ? null
                  : scopesFor(
                      scopes,
                      scopeKeys,
                      JsTable.positionKey(m.genLine[range[0]], m.genCol[range[0]]),
                      next));
      // long names or URLs: halve the range (a page holds the names its segments use), while
      // halving helps: a string every segment shares stays in each half, and halving on would
      // copy it into a page per position (a 600 KB name over 200 segments made 120 MB of pages)
      boolean helps = range[2] == 0 || bytes.length < range[2] / 4 * 3;
      int mid =
          bytes.length > MAX_MAPPING_PAGE_BYTES && helps ? splitPoint(m, range[0], range[1]) : -1;
      if (mid > 0) {
        ranges.set(r, new int[] {range[0], mid, bytes.length});
        ranges.add(r + 1, new int[] {mid, range[1], bytes.length});
        continue;
      }
      pages.add(new TablePage(JsTable.positionKey(m.genLine[range[0]], m.genCol[range[0]]), bytes));
      r++;
    }
    int mappingPages = pages.size();
    int[] first = firstIndices(global, tableUrls.size());
    for (int g = 0; g < tableContent.size(); g++) {
      addContentPages(g, tableContent.get(g), pages);
      FunctionMap fm = first[g] < 0 ? null : map.functionMap(first[g]);
      if (fm != null) {
        pages.add(new TablePage(FunctionMapPage.key(g), new FunctionMapPage(g, fm).encode()));
      }
    }
    JsHeader header =
        new JsHeader(
            JsTable.FORMAT_VERSION,
            m.size,
            tableUrls.size(),
            (int) map.names().stream().distinct().count(),
            mappingPages,
            pages.size() - mappingPages,
            map.file(),
            map.debugId(),
            mappingPages == 0 ? -1L : pages.get(0).firstKey());
    return new JsTable(header.encode(), List.copyOf(pages));
  }

  /**
   * Where to halve the segments [from, to) without splitting equal generated positions, or -1
   * when they cannot be split (one position).
   */
  private static int splitPoint(Mappings m, int from, int to) {
    int mid = from + (to - from) / 2;
    for (int i = mid; i < to; i++) {
      if (i > from && (m.genLine[i] != m.genLine[i - 1] || m.genCol[i] != m.genCol[i - 1])) {
        return i;
      }
    }
    for (int i = mid - 1; i > from; i--) {
      if (m.genLine[i] != m.genLine[i - 1] || m.genCol[i] != m.genCol[i - 1]) {
        return i;
      }
    }
    return -1;
  }

  /** Per table source, the first map source deduplicated into it (-1: none), in one pass. */
  private static int[] firstIndices(int[] global, int tableSources) {
    int[] first = new int[tableSources];
    Arrays.fill(first, -1);
    for (int i = global.length - 1; i >= 0; i--) {
      first[global[i]] = i;
    }
    return first;
  }

  /**
   * The original name of the identifier starting at a generated position, or null: the segment
   * at that column, or one column before it (UglifyJS puts a function's name segment on the space
   * before the identifier, as Sentry's resolver also allows), when it carries a name.
   */
  static String originalName(SourceMap map, int line, int column) {
    Mappings m = map.mappings();
    int i = m.floorIndex(line, column);
    if (i < 0 || m.genLine[i] != line || m.genCol[i] < column - 1 || m.name[i] < 0) {
      return null;
    }
    return map.names().get(m.name[i]);
  }

  /** The intervals that matter for a page covering [from, next): the one active at from, and on. */
  static List<MinifiedScopes.Interval> scopesFor(
      List<MinifiedScopes.Interval> all, long[] keys, long from, long next) {
    // last interval starting at or before from
    int lo = 0;
    int hi = keys.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (keys[mid] <= from) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    List<MinifiedScopes.Interval> out = new ArrayList<>();
    for (int i = Math.max(hi, 0); i < keys.length && (next < 0 || keys[i] < next); i++) {
      out.add(all.get(i));
    }
    return out;
  }

  private static void addContentPages(int source, String content, List<TablePage> pages) {
    if (content == null) {
      return;
    }
    List<String> lines = new ArrayList<>();
    int chars = 0;
    int first = 0;
    int line = 0;
    int start = 0;
    int n = content.length();
    while (start <= n) {
      int end = start;
      while (end < n && content.charAt(end) != '\n' && content.charAt(end) != '\r') {
        end++;
      }
      String text = content.substring(start, Math.min(end, start + MAX_STORED_LINE));
      lines.add(text);
      chars += text.length();
      line++;
      if (end >= n) {
        break;
      }
      start =
          end
              + (content.charAt(end) == '\r' && end + 1 < n && content.charAt(end + 1) == '\n'
                  ? 2
                  : 1);
      if (start == n) {
        break; // a final line terminator does not start another line
      }
      if (chars >= CONTENT_CHARS_PER_PAGE) {
        pages.add(
            new TablePage(
                JsTable.contentKey(source, first),
                new ContentPage(source, first, lines.toArray(new String[0])).encode()));
        lines.clear();
        chars = 0;
        first = line;
      }
    }
    if (!lines.isEmpty()) {
      pages.add(
          new TablePage(
              JsTable.contentKey(source, first),
              new ContentPage(source, first, lines.toArray(new String[0])).encode()));
    }
    Objects.requireNonNull(content);
  }
}
