package io.symbolicate.symbols.js;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import io.symbolicate.symbols.io.DebugFileInput;
import java.io.BufferedInputStream;
import java.io.CharConversionException;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * Streaming Source Map v3 reader (ECMA-426) over jackson-core: no JSON tree is built; the
 * {@code mappings} string is VLQ-decoded straight from the parser's character buffer. Regular
 * and index maps ({@code sections}) are accepted; index maps are flattened. Every violation of
 * the spec the tc39 conformance suite checks is rejected with a precise reason.
 */
public final class SourceMapParser {
  /** Default cap on any one JSON string (mappings, a sourcesContent entry): 256 M chars. */
  public static final int DEFAULT_MAX_STRING = 256 << 20;

  /** Index maps may nest sections; deeper than this is rejected (hostile input). */
  public static final int MAX_SECTION_DEPTH = 8;

  /**
   * {@link #forHeap}: decoded segments take 24 bytes each, and a map may hold one per this many
   * bytes of the max heap (3/16 of the heap in segments; 3.7 M segments at -Xmx512m).
   */
  static final int HEAP_BYTES_PER_SEGMENT = 128;

  private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

  private final JsonFactory factory;
  private final String mapUrl;
  private final long maxBytes;
  // streams are read at most to DebugFileInput.inHeapLimit(maxBytes), with the heap named as the
  // reason
  private final boolean heapBounded;
  // the resolved source URLs together may hold at most this many chars (as much as one JSON string)
  private final int maxStringChars;
  // segments held at most (all sections, and an index map's flattened copy, together)
  private final int maxSegments;

  public SourceMapParser() {
    this(null, DEFAULT_MAX_STRING, DebugFileInput.DEFAULT_MAX_BYTES);
  }

  /**
   * A parser for this JVM's heap (the loader's, the CLI's): streams capped at
   * {@link DebugFileInput#inHeapLimit}, and any one JSON string at {@link #DEFAULT_MAX_STRING} or an
   * eighth of the max heap in chars (two bytes each while read), whichever is less, and the
   * decoded segments at one per {@link #HEAP_BYTES_PER_SEGMENT} bytes of the max heap, so a
   * hostile {@code mappings} fails with a reason instead of exhausting the heap.
   */
  public static SourceMapParser forHeap(String mapUrl, long maxBytes) {
    long heap = Runtime.getRuntime().maxMemory();
    return new SourceMapParser(
        mapUrl,
        (int) Math.min(DEFAULT_MAX_STRING, heap / 8),
        maxBytes,
        true,
        (int) Math.min(MAX_ARRAY, heap / HEAP_BYTES_PER_SEGMENT));
  }

  /**
   * @param mapUrl the map's own URL, for resolving relative sources (null: keep them relative)
   * @param maxStringChars cap on a single JSON string, e.g. a hostile 1 GB {@code mappings}
   * @param maxBytes cap on the (decompressed) input read from a stream
   */
  public SourceMapParser(String mapUrl, int maxStringChars, long maxBytes) {
    this(mapUrl, maxStringChars, maxBytes, MAX_ARRAY);
  }

  /**
   * As {@link #SourceMapParser(String, int, long)}, with a cap on the decoded segments (24 bytes
   * each in memory): more, counting every section of an index map and its flattened copy, fail.
   */
  public SourceMapParser(String mapUrl, int maxStringChars, long maxBytes, int maxSegments) {
    this(mapUrl, maxStringChars, maxBytes, false, maxSegments);
  }

  private SourceMapParser(
      String mapUrl, int maxStringChars, long maxBytes, boolean heapBounded, int maxSegments) {
    this.mapUrl = mapUrl;
    this.maxBytes = maxBytes;
    this.heapBounded = heapBounded;
    this.maxStringChars = maxStringChars;
    this.maxSegments = maxSegments;
    this.factory =
        JsonFactory.builder()
            .streamReadConstraints(
                StreamReadConstraints.builder()
                    .maxStringLength(maxStringChars)
                    .maxNestingDepth(200)
                    .build())
            .build();
  }

  /** A fresh instance for one parse: per-call state must not be shared, parsers are shared across threads. */
  private SourceMapParser(SourceMapParser shared) {
    this.factory = shared.factory;
    this.mapUrl = shared.mapUrl;
    this.maxBytes = shared.maxBytes;
    this.heapBounded = shared.heapBounded;
    this.maxStringChars = shared.maxStringChars;
    this.maxSegments = shared.maxSegments;
  }

  public SourceMap parse(Path file) throws IOException, SourceMapException {
    try (InputStream in = Files.newInputStream(file)) {
      return parse(in);
    }
  }

  /** Parses a stream: gunzipped when it is gzip, capped at {@code maxBytes} decompressed. */
  public SourceMap parse(InputStream raw) throws IOException, SourceMapException {
    BufferedInputStream in =
        new BufferedInputStream(
            heapBounded
                ? DebugFileInput.wrapInHeap(raw, maxBytes, "sourcemap")
                : DebugFileInput.wrap(raw, maxBytes),
            1 << 16);
    skipXssiPrefix(in);
    JsonParser parser;
    try {
      parser = factory.createParser(in);
    } catch (CharConversionException e) {
      throw badEncoding(e);
    }
    try (JsonParser p = parser) {
      return new SourceMapParser(this).parseDocument(p);
    }
  }

  /**
   * Jackson detects the text encoding when the parser is created, before parseDocument's own
   * catch: an encoding it refuses (a UCS-4 byte order) is the map's fault, not an I/O failure
   * to retry.
   */
  private static SourceMapException badEncoding(CharConversionException e) {
    return new SourceMapException("invalid text encoding: " + e.getMessage(), e);
  }

  public SourceMap parse(byte[] data) throws IOException, SourceMapException {
    int start = xssiPrefixLength(data);
    JsonParser parser;
    try {
      parser = factory.createParser(data, start, data.length - start);
    } catch (CharConversionException e) {
      throw badEncoding(e);
    }
    try (JsonParser p = parser) {
      SourceMapParser run = new SourceMapParser(this);
      run.raw = data;
      run.rawStart = start;
      return run.parseDocument(p);
    }
  }

  /** The input when parsing from memory: lets mappings be decoded from its bytes directly. */
  private byte[] raw;

  private int rawStart;

  /** Chars of resolved source URLs so far, over all sections (checked against maxStringChars). */
  private long urlChars;

  /** Segment slots allocated so far, over all sections (checked against maxSegments). */
  private long segmentsHeld;

  /** Why {@link #maxSegments} is what it is, for the message of a map that has more. */
  private String segmentLimitReason() {
    return heapBounded
        ? " (decoded segments take 24 bytes each, and this JVM holds at most one per "
            + HEAP_BYTES_PER_SEGMENT
            + " bytes of its max heap; raise -Xmx to read this map)"
        : " (the parser's limit)";
  }

  /**
   * The byte range of the current string token's content in {@link #raw} when it has no escapes
   * (Jackson then skips it without decoding it to chars), else null.
   */
  private int[] rawStringRange(JsonParser p) {
    if (raw == null) {
      return null;
    }
    int q = rawTokenStart(p);
    if (q < 0) {
      return null;
    }
    for (int i = q + 1; i < raw.length; i++) {
      byte b = raw[i];
      if (b == '"') {
        return new int[] {q + 1, i};
      }
      if (b == '\\') {
        return null;
      }
    }
    return null;
  }

  private SourceMap parseDocument(JsonParser p) throws IOException, SourceMapException {
    try {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new SourceMapException("not a sourcemap: the document is not a JSON object");
      }
      Raw raw = parseMap(p, 0, "");
      if (p.nextToken() != null) {
        throw new SourceMapException("trailing data after the sourcemap object");
      }
      return raw.toSourceMap();
    } catch (StreamConstraintsException e) {
      throw new SourceMapException(
          "sourcemap exceeds a parser limit: " + firstLine(e.getOriginalMessage()), e);
    } catch (JsonProcessingException e) {
      throw new SourceMapException(
          "invalid JSON: "
              + firstLine(e.getOriginalMessage())
              + " at "
              + e.getLocation().offsetDescription(),
          e);
    } catch (CharConversionException e) {
      throw new SourceMapException("invalid text encoding: " + e.getMessage(), e);
    }
  }

  /**
   * The current string token as one byte per char ({@link MappingsDecoder#NOT_ASCII} for
   * non-ASCII), copied from the parser's buffer segment by segment: asking for its chars as one
   * array would make Jackson join its segments into another copy (2 bytes a char).
   */
  private static byte[] asciiText(JsonParser p) throws IOException {
    byte[] out = new byte[p.getTextLength()];
    p.getText(
        new Writer() {
          int n;

          @Override
          public void write(char[] c, int off, int len) {
            for (int i = 0; i < len; i++) {
              char ch = c[off + i];
              out[n++] = ch < 128 ? (byte) ch : MappingsDecoder.NOT_ASCII;
            }
          }

          @Override
          public void write(String s, int off, int len) {
            for (int i = 0; i < len; i++) {
              char ch = s.charAt(off + i);
              out[n++] = ch < 128 ? (byte) ch : MappingsDecoder.NOT_ASCII;
            }
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        });
    return out;
  }

  /** Fields of one map object (regular or index), validated when its object ends. */
  private final class Raw {
    final String where;
    Integer version;
    boolean versionSeen;
    String file;
    String sourceRoot;
    String debugId;
    List<String> sources;
    List<String> sourcesContent;
    List<String> names;
    int[] ignoreList;
    int[] googleIgnoreList;
    Mappings mappings;
    MappingsDecoder stats;
    List<Section> sections;
    List<FunctionMap> functionMaps;
    SourceMap flattened;

    Raw(String where) {
      this.where = where;
    }

    SourceMap toSourceMap() throws SourceMapException {
      if (flattened != null) {
        return flattened;
      }
      List<String> resolved = new ArrayList<>(sources.size());
      for (int i = 0; i < sources.size(); i++) {
        String url = SourceUrls.resolve(mapUrl, SourceUrls.joinRoot(sourceRoot, sources.get(i)));
        if (url != null) {
          // each source gets its own copy of sourceRoot: a long root times many sources would
          // otherwise turn a small (well compressed) map into gigabytes of strings
          urlChars += url.length();
          if (urlChars > maxStringChars) {
            throw bad(
                where,
                "the resolved source URLs exceed "
                    + maxStringChars
                    + " chars at sources["
                    + i
                    + "] (sourceRoot has "
                    + (sourceRoot == null ? 0 : sourceRoot.length())
                    + " chars, joined to each of "
                    + sources.size()
                    + " sources; the URLs together are"
                    + " limited to the length of one JSON string)");
          }
        }
        resolved.add(url);
      }
      List<String> content;
      if (sourcesContent instanceof RawJsonStrings lazy) {
        content = lazy.withSize(sources.size()); // stays undecoded
      } else {
        content = new ArrayList<>(sources.size());
        for (int i = 0; i < sources.size(); i++) {
          content.add(
              sourcesContent != null && i < sourcesContent.size() ? sourcesContent.get(i) : null);
        }
      }
      BitSet ignored = new BitSet();
      int[] ig = ignoreList != null ? ignoreList : googleIgnoreList;
      if (ig != null) {
        for (int i : ig) {
          ignored.set(i);
        }
      }
      return new SourceMap(
          file,
          debugId,
          resolved,
          sources,
          content,
          names == null ? List.of() : names,
          ignored,
          mappings,
          functionMaps);
    }
  }

  private record Section(int line, int column, SourceMap map) {}

  private Raw parseMap(JsonParser p, int depth, String where)
      throws IOException, SourceMapException {
    Raw r = new Raw(where);
    JsonToken t;
    while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      t = p.nextToken();
      switch (field) {
        case "version" -> {
          r.versionSeen = true;
          if (t != JsonToken.VALUE_NUMBER_INT
              || p.getNumberType() != JsonParser.NumberType.INT
              || p.getIntValue() != 3) {
            throw bad(where, "version must be the number 3 (got " + p.getText() + ")");
          }
          r.version = 3;
        }
        case "file" -> r.file = optionalString(p, t, where, "file");
        case "sourceRoot" -> r.sourceRoot = optionalString(p, t, where, "sourceRoot");
        case "debugId", "debug_id" -> r.debugId = optionalString(p, t, where, field);
        case "sources" -> r.sources = stringList(p, t, where, "sources", true);
        case "sourcesContent" ->
            r.sourcesContent =
                raw != null
                    ? rawStringList(p, t, where, "sourcesContent")
                    : stringList(p, t, where, "sourcesContent", true);
        case "names" -> r.names = stringList(p, t, where, "names", false);
        case "ignoreList" -> r.ignoreList = intList(p, t, where, "ignoreList");
        case "x_google_ignoreList" ->
            r.googleIgnoreList = intList(p, t, where, "x_google_ignoreList");
        case "mappings" -> {
          if (t != JsonToken.VALUE_STRING) {
            throw bad(where, "mappings must be a string");
          }
          r.stats = MappingsDecoder.stats();
          try {
            int[] range = rawStringRange(p);
            byte[] text = range != null ? raw : asciiText(p);
            int from = range != null ? range[0] : 0;
            int len = range != null ? range[1] - range[0] : text.length;
            int room = (int) Math.max(0, maxSegments - segmentsHeld);
            r.mappings =
                MappingsDecoder.decode(text, from, len, r.stats, room, segmentLimitReason());
            segmentsHeld += r.mappings.capacity();
          } catch (SourceMapException e) {
            throw bad(where, e.getMessage());
          }
        }
        case "sections" -> r.sections = sections(p, t, depth, where);
        case "x_facebook_sources" -> r.functionMaps = facebookSources(p, t, where);
        default ->
            p.skipChildren(); // unknown fields (lineCount, x_facebook_sources, ...) are ignored
      }
    }
    if (t != JsonToken.END_OBJECT) {
      throw bad(where, "unexpected " + t);
    }
    if (!r.versionSeen) {
      throw bad(where, "missing version");
    }
    if (r.sections != null) {
      if (r.mappings != null) {
        throw bad(where, "an index map must not have mappings");
      }
      return flatten(r);
    }
    if (r.mappings == null) {
      throw bad(where, "missing mappings");
    }
    if (r.sources == null) {
      throw bad(where, "missing sources");
    }
    if (r.names == null) {
      r.names = List.of();
    }
    if (r.stats.maxSource >= r.sources.size()) {
      throw bad(
          where,
          "mappings reference source index "
              + r.stats.maxSource
              + " but sources has "
              + r.sources.size()
              + " entries");
    }
    if (r.stats.maxName >= r.names.size()) {
      throw bad(
          where,
          "mappings reference name index "
              + r.stats.maxName
              + " but names has "
              + r.names.size()
              + " entries");
    }
    checkIgnoreList(r.ignoreList, r.sources.size(), where, "ignoreList");
    checkIgnoreList(r.googleIgnoreList, r.sources.size(), where, "x_google_ignoreList");
    return r;
  }

  private static void checkIgnoreList(int[] list, int sources, String where, String field)
      throws SourceMapException {
    if (list == null) {
      return;
    }
    for (int i : list) {
      if (i < 0 || i >= sources) {
        throw bad(
            where,
            field
                + " entry "
                + i
                + " is not a valid source index (sources has "
                + sources
                + " entries)");
      }
    }
  }

  private List<Section> sections(JsonParser p, JsonToken t, int depth, String where)
      throws IOException, SourceMapException {
    if (t != JsonToken.START_ARRAY) {
      throw bad(where, "sections must be an array");
    }
    if (depth >= MAX_SECTION_DEPTH) {
      throw bad(where, "index map sections nested deeper than " + MAX_SECTION_DEPTH);
    }
    List<Section> out = new ArrayList<>();
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      String at = where + "sections[" + out.size() + "].";
      if (t != JsonToken.START_OBJECT) {
        throw bad(at, "a section must be an object");
      }
      Integer line = null;
      Integer column = null;
      boolean offsetSeen = false;
      SourceMap map = null;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        String f = p.currentName();
        t = p.nextToken();
        switch (f) {
          case "offset" -> {
            offsetSeen = true;
            if (t != JsonToken.START_OBJECT) {
              throw bad(at, "offset must be an object");
            }
            while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
              String of = p.currentName();
              t = p.nextToken();
              if (of.equals("line") || of.equals("column")) {
                if (t != JsonToken.VALUE_NUMBER_INT
                    || p.getNumberType() != JsonParser.NumberType.INT
                    || p.getIntValue() < 0) {
                  throw bad(
                      at,
                      "offset." + of + " must be a non-negative integer (got " + p.getText() + ")");
                }
                if (of.equals("line")) {
                  line = p.getIntValue();
                } else {
                  column = p.getIntValue();
                }
              } else {
                p.skipChildren();
              }
            }
          }
          case "map" -> {
            if (t != JsonToken.START_OBJECT) {
              throw bad(at, "map must be an object");
            }
            map = parseMap(p, depth + 1, at + "map.").toSourceMap();
          }
          case "url" -> throw bad(at, "sections with url (instead of map) are not supported");
          default -> p.skipChildren();
        }
      }
      if (!offsetSeen) {
        throw bad(at, "missing offset");
      }
      if (line == null) {
        throw bad(at, "missing offset.line");
      }
      if (column == null) {
        throw bad(at, "missing offset.column");
      }
      if (map == null) {
        throw bad(at, "missing map");
      }
      out.add(new Section(line, column, map));
    }
    return out;
  }

  /** Concatenates the sections' tables and shifts their mappings by the section offsets. */
  private Raw flatten(Raw r) throws SourceMapException {
    List<String> sources = new ArrayList<>();
    List<String> rawSources = new ArrayList<>();
    List<String> content = new ArrayList<>();
    List<String> names = new ArrayList<>();
    List<FunctionMap> functionMaps = new ArrayList<>();
    BitSet ignored = new BitSet();
    long total = 0;
    for (Section s : r.sections) {
      total += s.map.segmentCount();
    }
    // the flattened copy is held with the sections' own segments: it counts against the limit too
    if (total > maxSegments - segmentsHeld) {
      throw bad(
          r.where,
          "index map: flattening its sections makes more than "
              + maxSegments
              + " segments held"
              + segmentLimitReason());
    }
    segmentsHeld += total;
    Mappings m = new Mappings((int) total);
    long prevEnd = -1; // packed position just past the previous section's last segment
    long prevOffset = -1;
    for (int k = 0; k < r.sections.size(); k++) {
      Section s = r.sections.get(k);
      long offset = ((long) s.line << 32) | s.column;
      if (offset <= prevOffset) {
        throw bad(
            r.where,
            "sections["
                + k
                + "] offset "
                + s.line
                + ":"
                + s.column
                + " is not after the previous section's offset (sections must be ordered and must not overlap)");
      }
      if (offset < prevEnd) {
        throw bad(
            r.where,
            "sections["
                + (k - 1)
                + "] has mappings at or after sections["
                + k
                + "] offset "
                + s.line
                + ":"
                + s.column
                + " (sections must not overlap)");
      }
      prevOffset = offset;
      SourceMap sm = s.map;
      int srcBase = sources.size();
      int nameBase = names.size();
      Mappings sub = sm.mappings();
      m.reserve(sub.size);
      for (int i = 0; i < sub.size; i++) {
        int gl = sub.genLine[i];
        long line = (long) gl + s.line;
        long col = gl == 0 ? (long) sub.genCol[i] + s.column : sub.genCol[i];
        if (line > Integer.MAX_VALUE || col > Integer.MAX_VALUE) {
          throw bad(r.where, "sections[" + k + "] shifts a mapping beyond 32-bit positions");
        }
        int src = sub.source[i];
        int nm = sub.name[i];
        m.add(
            (int) line,
            (int) col,
            src < 0 ? -1 : src + srcBase,
            sub.origLine[i],
            sub.origCol[i],
            nm < 0 ? -1 : nm + nameBase);
        prevEnd = ((line << 32) | col) + 1;
      }
      sources.addAll(sm.sources());
      rawSources.addAll(sm.rawSources());
      content.addAll(sm.sourcesContent());
      names.addAll(sm.names());
      for (int i = 0; i < sm.sources().size(); i++) {
        functionMaps.add(sm.functionMap(i));
      }
      for (int b = sm.ignored().nextSetBit(0); b >= 0; b = sm.ignored().nextSetBit(b + 1)) {
        ignored.set(b + srcBase);
      }
    }
    Raw flat = new Raw(r.where);
    flat.version = 3;
    flat.file = r.file;
    flat.debugId = r.debugId;
    flat.sources = rawSources;
    flat.sourcesContent = content;
    flat.names = names;
    flat.mappings = m;
    flat.flattened =
        new SourceMap(
            r.file, r.debugId, sources, rawSources, content, names, ignored, m, functionMaps);
    return flat;
  }

  /**
   * Metro's {@code x_facebook_sources}: per source null or {@code [{names, mappings}, ...]}; the
   * first entry is the function map. Malformed entries are a non-standard field's problem, so they
   * are reported (the map is rejected) rather than guessed at.
   */
  private static List<FunctionMap> facebookSources(JsonParser p, JsonToken t, String where)
      throws IOException, SourceMapException {
    if (t != JsonToken.START_ARRAY) {
      throw bad(where, "x_facebook_sources must be an array");
    }
    List<FunctionMap> out = new ArrayList<>();
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      if (t == JsonToken.VALUE_NULL) {
        out.add(null);
        continue;
      }
      if (t != JsonToken.START_ARRAY) {
        throw bad(where, "x_facebook_sources[" + out.size() + "] must be an array or null");
      }
      FunctionMap fm = null;
      while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
        if (t != JsonToken.START_OBJECT || fm != null) {
          p.skipChildren();
          continue;
        }
        List<String> names = List.of();
        String mappings = "";
        while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
          String f = p.currentName();
          t = p.nextToken();
          if (f.equals("names")) {
            names = stringList(p, t, where, "x_facebook_sources names", false);
          } else if (f.equals("mappings") && t == JsonToken.VALUE_STRING) {
            mappings = p.getText();
          } else {
            p.skipChildren();
          }
        }
        try {
          fm = FunctionMap.decode(names.toArray(new String[0]), mappings);
        } catch (SourceMapException e) {
          throw bad(where, e.getMessage());
        }
      }
      out.add(fm);
    }
    return out;
  }

  private static String optionalString(JsonParser p, JsonToken t, String where, String field)
      throws IOException, SourceMapException {
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    if (t != JsonToken.VALUE_STRING) {
      throw bad(where, field + " must be a string");
    }
    return p.getText();
  }

  private static List<String> stringList(
      JsonParser p, JsonToken t, String where, String field, boolean nullable)
      throws IOException, SourceMapException {
    if (t != JsonToken.START_ARRAY) {
      throw bad(where, field + " must be an array");
    }
    List<String> out = new ArrayList<>();
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      if (t == JsonToken.VALUE_STRING) {
        out.add(p.getText());
      } else if (t == JsonToken.VALUE_NULL && nullable) {
        out.add(null);
      } else {
        throw bad(
            where, field + "[" + out.size() + "] must be a string" + (nullable ? " or null" : ""));
      }
    }
    return out;
  }

  /**
   * Like {@link #stringList} (nullable) but, parsing from memory, keeps each string as the position
   * of its opening quote in the input ({@link RawJsonStrings}): Jackson skips and validates the
   * token without decoding it, and it is decoded only if the content is used.
   */
  private List<String> rawStringList(JsonParser p, JsonToken t, String where, String field)
      throws IOException, SourceMapException {
    if (t != JsonToken.START_ARRAY) {
      throw bad(where, field + " must be an array");
    }
    int[] quoteAt = new int[4];
    String[] eager = new String[4];
    int n = 0;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      if (n == quoteAt.length) {
        quoteAt = Arrays.copyOf(quoteAt, n * 2);
        eager = Arrays.copyOf(eager, n * 2);
      }
      quoteAt[n] = -1;
      if (t == JsonToken.VALUE_STRING) {
        int q = rawTokenStart(p);
        if (q >= 0) {
          quoteAt[n] = q;
        } else {
          eager[n] = p.getText(); // position unknown: decode now
        }
      } else if (t != JsonToken.VALUE_NULL) {
        throw bad(where, field + "[" + n + "] must be a string or null");
      }
      n++;
    }
    return new RawJsonStrings(factory, raw, quoteAt, eager, n);
  }

  /** The index in {@link #raw} of the current string token's opening quote, or -1. */
  private int rawTokenStart(JsonParser p) {
    long at = p.currentTokenLocation().getByteOffset();
    for (long cand : new long[] {at + rawStart, at}) {
      if (cand >= 0 && cand < raw.length && raw[(int) cand] == '"') {
        return (int) cand;
      }
    }
    return -1;
  }

  private static int[] intList(JsonParser p, JsonToken t, String where, String field)
      throws IOException, SourceMapException {
    if (t != JsonToken.START_ARRAY) {
      throw bad(where, field + " must be an array");
    }
    int[] out = new int[8];
    int n = 0;
    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
      if (t != JsonToken.VALUE_NUMBER_INT || p.getNumberType() != JsonParser.NumberType.INT) {
        throw bad(
            where, field + "[" + n + "] must be an integer source index (got " + p.getText() + ")");
      }
      if (n == out.length) {
        out = Arrays.copyOf(out, n * 2);
      }
      out[n++] = p.getIntValue();
    }
    return Arrays.copyOf(out, n);
  }

  private static SourceMapException bad(String where, String reason) {
    return new SourceMapException("invalid sourcemap: " + where + reason);
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  /** The XSSI guard {@code )]}'} some servers prepend: the whole first line is dropped. */
  static int xssiPrefixLength(byte[] d) {
    if (d.length >= 4 && d[0] == ')' && d[1] == ']' && d[2] == '}') {
      for (int i = 3; i < d.length; i++) {
        if (d[i] == '\n') {
          return i + 1;
        }
      }
      return d.length;
    }
    return 0;
  }

  private static void skipXssiPrefix(BufferedInputStream in) throws IOException {
    in.mark(3);
    byte[] b = in.readNBytes(3);
    if (b.length == 3 && b[0] == ')' && b[1] == ']' && b[2] == '}') {
      int c;
      while ((c = in.read()) >= 0 && c != '\n') {
        // drop the rest of the guard line
      }
    } else {
      in.reset();
    }
  }
}
