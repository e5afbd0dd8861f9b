package io.symbolicate.symbols.jvm;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.symbolicate.symbols.jvm.ParsedMapping.ParsedClass;
import io.symbolicate.symbols.jvm.ParsedMapping.ParsedMember;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Reads ProGuard and R8 {@code mapping.txt} straight from bytes (no regex, no per-line String
 * for the whole line). Malformed lines are counted and skipped; only a file with nothing usable
 * in it is an error.
 */
public final class MappingParser {
  private static final JsonFactory JSON = new JsonFactory();

  private final byte[] buf;
  private final int start;
  private final int end;
  private final ParsedMapping out = new ParsedMapping();
  private final Map<String, ParsedClass> byObfuscated = new HashMap<>();
  private final Map<String, String> names = new HashMap<>();
  private final ByteInterner bytes = new ByteInterner();
  private ParsedClass current;

  /** Original name of the block being read (differs from current.original for a repeated class). */
  private String currentOriginal;

  private ParsedMember lastMember;
  private final List<ParsedMember> flagged = new ArrayList<>();

  /**
   * Method-level flags seen in each class's blocks, per method: how many of the class's members
   * existed when the last block flagging it synthesized / outline ended ({@link #finishClass}).
   */
  private final Map<ParsedClass, Map<MethodKey, int[]>> methodFlags = new IdentityHashMap<>();

  private long lineNo;

  /** A method as method-level metadata names it: every line of it shares these. */
  private record MethodKey(long signature, String origClass) {
    MethodKey(ParsedMember m) {
      this(m.signature, m.origClass);
    }
  }

  private MappingParser(byte[] buf, int start, int len) {
    this.buf = buf;
    this.start = start;
    this.end = len;
  }

  /** Parses a whole mapping; throws {@link MappingException} only when nothing usable remains. */
  public static ParsedMapping parse(byte[] data) {
    return parse(data, data.length);
  }

  public static ParsedMapping parse(byte[] data, int length) {
    return check(run(data, 0, length));
  }

  /**
   * Parses on two threads when the mapping is large: the second half starts at a class line, so
   * both halves parse independently; the results are merged as if read in one pass.
   */
  public static ParsedMapping parseParallel(byte[] data) {
    return parseParallel(data, 4 << 20);
  }

  static ParsedMapping parseParallel(byte[] data, int minBytes) {
    int split = data.length < minBytes ? -1 : classLineAfter(data, data.length / 2);
    if (split < 0) {
      return parse(data);
    }
    CompletableFuture<MappingParser> second =
        CompletableFuture.supplyAsync(() -> run(data, split, data.length));
    MappingParser first = run(data, 0, split);
    return check(merge(first, second.join()));
  }

  private static MappingParser run(byte[] data, int from, int to) {
    MappingParser p = new MappingParser(data, from, to);
    p.run();
    return p;
  }

  /** Start of the first class line at or after pos, or -1. */
  private static int classLineAfter(byte[] d, int pos) {
    for (int i = pos; i < d.length - 1; i++) {
      if (d[i] == '\n') {
        byte b = d[i + 1];
        if (b != ' ' && b != '\t' && b != '#' && b != '\n' && b != '\r') {
          return i + 1;
        }
      }
    }
    return -1;
  }

  private static MappingParser merge(MappingParser a, MappingParser b) {
    ParsedMapping m = a.out;
    ParsedMapping n = b.out;
    for (ParsedClass c : n.classes) {
      ParsedClass existing = a.byObfuscated.get(c.obfuscated);
      if (existing == null) {
        m.classes.add(c);
        a.byObfuscated.put(c.obfuscated, c);
        continue;
      }
      m.duplicateClasses++;
      for (ParsedMember pm : c.members) {
        if (pm.origClass == null && !c.original.equals(existing.original)) {
          pm.origClass = c.original;
        }
        existing.members.add(pm);
      }
    }
    if (m.malformedLines == 0 && n.malformedLines > 0) {
      m.firstMalformedLine = (int) Math.min(Integer.MAX_VALUE, n.firstMalformedLine + m.lineCount);
      m.firstMalformedReason = n.firstMalformedReason;
    }
    m.malformedLines += n.malformedLines;
    m.fieldCount += n.fieldCount;
    m.methodLineCount += n.methodLineCount;
    m.duplicateClasses += n.duplicateClasses;
    m.lineCount += n.lineCount;
    return a;
  }

  private static ParsedMapping check(MappingParser p) {
    ParsedMapping m = p.out;
    if (m.classes.isEmpty()) {
      String why =
          m.malformedLines > 0
              ? m.malformedLines
                  + " malformed line(s), first at line "
                  + m.firstMalformedLine
                  + ": "
                  + m.firstMalformedReason
              : "no 'original -> obfuscated:' class line found";
      throw new MappingException("not a usable ProGuard/R8 mapping: " + why);
    }
    return m;
  }

  private void run() {
    int pos = start;
    // A UTF-8 byte order mark is not part of the first class name.
    if (start == 0
        && end >= 3
        && (buf[0] & 0xff) == 0xEF
        && (buf[1] & 0xff) == 0xBB
        && (buf[2] & 0xff) == 0xBF) {
      pos = 3;
    }
    while (pos < end) {
      int nl = pos;
      while (nl < end && buf[nl] != '\n') {
        nl++;
      }
      lineNo++;
      int e = nl;
      while (e > pos && (buf[e - 1] == '\r' || buf[e - 1] == ' ' || buf[e - 1] == '\t')) {
        e--;
      }
      if (e > pos) {
        line(pos, e);
      }
      pos = nl + 1;
    }
    finishClass();
    applyMethodFlags();
    out.lineCount = lineNo;
  }

  private void line(int s, int e) {
    byte b = buf[s];
    if (b == '#') {
      comment(s + 1, e, false);
      return;
    }
    if (b == ' ' || b == '\t') {
      int p = s;
      while (p < e && (buf[p] == ' ' || buf[p] == '\t')) {
        p++;
      }
      if (buf[p] == '#') {
        comment(p + 1, e, true);
      } else if (current == null) {
        out.malformed(lineNo, "member line outside of a class block");
      } else {
        member(p, e);
      }
      return;
    }
    classLine(s, e);
  }

  private void classLine(int s, int e) {
    finishClass();
    int arrow = indexOf(ARROW, s, e);
    if (arrow < 0 || buf[e - 1] != ':' || arrow == s || arrow + 4 >= e - 1) {
      out.malformed(lineNo, "expected 'original.Class -> obfuscated.Class:'");
      current = null;
      return;
    }
    String original = str(s, arrow);
    String obfuscated = str(arrow + 4, e - 1).trim();
    if (original.indexOf(' ') >= 0 || obfuscated.isEmpty() || obfuscated.indexOf(' ') >= 0) {
      out.malformed(lineNo, "class names must not contain spaces");
      current = null;
      return;
    }
    ParsedClass existing = byObfuscated.get(obfuscated);
    if (existing != null) {
      // The same obfuscated class twice: keep the first name, merge the members.
      out.duplicateClasses++;
      current = existing;
    } else {
      current = new ParsedClass(original, obfuscated);
      byObfuscated.put(obfuscated, current);
      out.classes.add(current);
    }
    currentOriginal = original;
    lastMember = null;
  }

  /**
   * Method-level metadata (synthesized, outline) belongs to the method, i.e. every line of it the
   * class has when this block ends (a later block of the same class may add lines that do not get
   * it). Recorded per method here and applied in one pass per class when parsing ends: comparing
   * every flagged line with every member was flagged x members per class (40,000 flagged methods
   * in one class: 7 s), and a class repeated in many blocks walked all its members per block.
   */
  private void finishClass() {
    if (flagged.isEmpty() || current == null) {
      flagged.clear();
      return;
    }
    int membersNow = current.members.size();
    Map<MethodKey, int[]> byMethod = methodFlags.computeIfAbsent(current, c -> new HashMap<>());
    for (ParsedMember f : flagged) {
      int[] upTo = byMethod.computeIfAbsent(new MethodKey(f), k -> new int[2]);
      // blocks end in order, so a later block's count is never smaller
      if (f.synthesized) {
        upTo[0] = membersNow;
      }
      if (f.outline) {
        upTo[1] = membersNow;
      }
    }
    flagged.clear();
  }

  private void applyMethodFlags() {
    for (Map.Entry<ParsedClass, Map<MethodKey, int[]>> e : methodFlags.entrySet()) {
      List<ParsedMember> members = e.getKey().members;
      Map<MethodKey, int[]> byMethod = e.getValue();
      for (int i = 0; i < members.size(); i++) {
        ParsedMember m = members.get(i);
        int[] upTo = byMethod.get(new MethodKey(m));
        if (upTo != null) {
          m.synthesized |= i < upTo[0];
          m.outline |= i < upTo[1];
        }
      }
    }
    methodFlags.clear();
  }

  private void member(int s, int e) {
    int arrow = lastIndexOf(ARROW, s, e);
    if (arrow < 0) {
      out.malformed(lineNo, "member line without ' -> '");
      return;
    }
    int p = s;
    ParsedMember m = new ParsedMember();
    if (isDigit(buf[p])) {
      long a = number(p, arrow);
      p = numEnd;
      if (a < 0 || p >= arrow || buf[p] != ':') {
        malformedNumber(a);
        return;
      }
      long b = number(p + 1, arrow);
      p = numEnd;
      if (b < 0 || p >= arrow || buf[p] != ':') {
        malformedNumber(b);
        return;
      }
      p++;
      m.obfStart = (int) a;
      m.obfEnd = (int) b;
    }
    int paren = indexOf((byte) '(', p, arrow);
    if (paren < 0) {
      // A field: "type name -> obf". Fields never appear in stack frames.
      out.fieldCount++;
      return;
    }
    int nameStart = paren;
    while (nameStart > p && buf[nameStart - 1] != ' ') {
      nameStart--;
    }
    int close = indexOf((byte) ')', paren, arrow);
    if (nameStart == p || nameStart == paren || close < 0) {
      out.malformed(lineNo, "expected 'returnType name(arguments)'");
      return;
    }
    int q = close + 1;
    if (q < arrow && buf[q] == ':') {
      long c = number(q + 1, arrow);
      q = numEnd;
      if (c < 0) {
        malformedNumber(c);
        return;
      }
      m.origStart = (int) c;
      if (q < arrow && buf[q] == ':') {
        long d = number(q + 1, arrow);
        q = numEnd;
        if (d < 0) {
          malformedNumber(d);
          return;
        }
        m.origEnd = (int) d;
      }
    }
    if (q != arrow) {
      out.malformed(lineNo, "unexpected text after the method signature");
      return;
    }
    int obfS = arrow + 4;
    if (obfS >= e) {
      out.malformed(lineNo, "missing obfuscated member name");
      return;
    }
    int dot = paren - 1;
    while (dot > nameStart && buf[dot] != '.') {
      dot--;
    }
    if (dot > nameStart) {
      m.origClass = bytes.intern(buf, nameStart, dot);
      m.name = bytes.intern(buf, dot + 1, paren);
    } else {
      m.name = bytes.intern(buf, nameStart, paren);
      if (currentOriginal != null && !currentOriginal.equals(current.original)) {
        m.origClass = intern(currentOriginal); // member of a repeated class block
      }
    }
    long h = 0xcbf29ce484222325L; // FNV-1a
    for (int k = p; k <= close; k++) {
      h = (h ^ (buf[k] & 0xff)) * 0x100000001b3L;
    }
    m.signature = h;
    m.obfName = bytes.intern(buf, obfS, e);
    normaliseRanges(m);
    current.members.add(m);
    out.methodLineCount++;
    lastMember = m;
  }

  /** Invalid ranges (start after end) carry no usable line information: drop them. */
  private static void normaliseRanges(ParsedMember m) {
    if (m.obfStart >= 0 && m.obfStart > m.obfEnd) {
      m.obfStart = m.obfEnd = -1;
      m.origStart = m.origEnd = -1;
      return;
    }
    if (m.origStart >= 0 && m.origEnd >= 0 && m.origStart > m.origEnd) {
      m.obfStart = m.obfEnd = -1;
      m.origStart = m.origEnd = -1;
      return;
    }
    if (m.obfEnd > 0 && m.origStart < 0) {
      // ProGuard omits the original range when the lines were not moved.
      m.origStart = m.obfStart;
      m.origEnd = m.obfEnd;
    }
  }

  private void malformedNumber(long v) {
    out.malformed(lineNo, v == -2 ? "line number does not fit in 31 bits" : "malformed line range");
  }

  private int numEnd;

  /** Parses digits at p; returns -1 when there are none, -2 on overflow. Sets numEnd. */
  private long number(int p, int limit) {
    int start = p;
    long v = 0;
    while (p < limit && isDigit(buf[p])) {
      v = v * 10 + (buf[p] - '0');
      if (v > Integer.MAX_VALUE) {
        while (p < limit && isDigit(buf[p])) {
          p++;
        }
        numEnd = p;
        return -2;
      }
      p++;
    }
    numEnd = p;
    return p == start ? -1 : v;
  }

  private void comment(int s, int e, boolean indented) {
    int p = s;
    while (p < e && buf[p] == ' ') {
      p++;
    }
    if (p < e && buf[p] == '{') {
      metadata(p, e, indented);
      return;
    }
    if (current != null || !out.classes.isEmpty()) {
      return; // an ordinary comment
    }
    int colon = indexOf((byte) ':', p, e);
    if (colon < 0) {
      return;
    }
    String key = str(p, colon).trim();
    String value = str(colon + 1, e).trim();
    switch (key) {
      case "compiler" -> out.compiler = value;
      case "compiler_version" -> out.compilerVersion = value;
      case "min_api" -> {
        try {
          out.minApi = Integer.parseInt(value);
        } catch (NumberFormatException ex) {
          out.minApi = -1;
        }
      }
      case "pg_map_id" -> out.mapId = value;
      case "pg_map_hash" -> out.mapHash = value;
      default -> {}
    }
  }

  private static final byte[] SF_ID_FIRST =
      "{\"id\":\"sourceFile\",\"fileName\":\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] SF_NAME_FIRST =
      "{\"fileName\":\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] SF_ID_LAST =
      "\",\"id\":\"sourceFile\"}".getBytes(StandardCharsets.US_ASCII);

  /**
   * The one metadata line every class of a ProGuard 7 / R8 map has, in either key order, read
   * without a JSON parser. Returns false when the line has any other shape.
   */
  private boolean fastSourceFile(int s, int e) {
    int nameStart;
    int nameEnd;
    if (startsWith(SF_ID_FIRST, s, e)
        && e - s > SF_ID_FIRST.length + 1
        && buf[e - 1] == '}'
        && buf[e - 2] == '"') {
      nameStart = s + SF_ID_FIRST.length;
      nameEnd = e - 2;
    } else if (startsWith(SF_NAME_FIRST, s, e)
        && e - s > SF_NAME_FIRST.length + SF_ID_LAST.length
        && startsWith(SF_ID_LAST, e - SF_ID_LAST.length, e)) {
      nameStart = s + SF_NAME_FIRST.length;
      nameEnd = e - SF_ID_LAST.length;
    } else {
      return false;
    }
    for (int i = nameStart; i < nameEnd; i++) {
      if (buf[i] == '"' || buf[i] == '\\') {
        return false; // escapes or a different shape: let the JSON parser decide
      }
    }
    if (current != null) {
      current.sourceFile = bytes.intern(buf, nameStart, nameEnd);
    }
    return true;
  }

  private boolean startsWith(byte[] prefix, int s, int e) {
    if (e - s < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (buf[s + i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  private void metadata(int s, int e, boolean indented) {
    if (fastSourceFile(s, e)) {
      return;
    }
    String id = null;
    String fileName = null;
    List<String> conditions = null;
    List<String> actions = null;
    int[] positions = null;
    String version = null;
    try (JsonParser jp = JSON.createParser(buf, s, e - s)) {
      if (jp.nextToken() != JsonToken.START_OBJECT) {
        return;
      }
      while (jp.nextToken() == JsonToken.FIELD_NAME) {
        String field = jp.getCurrentName();
        JsonToken t = jp.nextToken();
        switch (field) {
          case "id" -> id = t == JsonToken.VALUE_STRING ? jp.getText() : null;
          case "fileName" -> fileName = t == JsonToken.VALUE_STRING ? jp.getText() : null;
          case "version" -> version = t == JsonToken.VALUE_STRING ? jp.getText() : null;
          case "conditions" -> conditions = strings(jp, t);
          case "actions" -> actions = strings(jp, t);
          case "positions" -> positions = positions(jp, t);
          default -> jp.skipChildren();
        }
      }
    } catch (IOException | RuntimeException ex) {
      return; // a comment that is not valid JSON is still just a comment
    }
    if (id == null) {
      return;
    }
    boolean onMember = lastMember != null;
    switch (id) {
      case "com.android.tools.r8.mapping" -> out.mapVersion = version;
      case "sourceFile" -> {
        if (current != null && fileName != null) {
          current.sourceFile = intern(fileName);
        }
      }
      case "com.android.tools.r8.synthesized" -> {
        if (onMember) {
          lastMember.synthesized = true;
          flagged.add(lastMember);
        } else if (current != null) {
          current.synthesized = true;
        }
      }
      case "com.android.tools.r8.outline" -> {
        if (onMember) {
          lastMember.outline = true;
          flagged.add(lastMember);
        }
      }
      case "com.android.tools.r8.outlineCallsite" -> {
        if (onMember && positions != null) {
          lastMember.outlinePositions = positions;
        }
      }
      case "com.android.tools.r8.rewriteFrame" -> {
        if (onMember && conditions != null && actions != null) {
          if (lastMember.rules == null) {
            lastMember.rules = new ArrayList<>(1);
          }
          lastMember.rules.add(rule(conditions, actions));
        }
      }
      default -> {} // residualsignature and anything newer: not needed to retrace
    }
  }

  static RewriteRule rule(List<String> conditions, List<String> actions) {
    List<String> throwsList = new ArrayList<>();
    boolean unknown = false;
    for (String c : conditions) {
      if (c.startsWith("throws(") && c.endsWith(")")) {
        throwsList.add(c.substring(7, c.length() - 1));
      } else {
        unknown = true;
      }
    }
    int remove = 0;
    for (String a : actions) {
      if (a.startsWith("removeInnerFrames(") && a.endsWith(")")) {
        try {
          remove =
              Math.addExact(remove, Math.max(0, Integer.parseInt(a.substring(18, a.length() - 1))));
        } catch (NumberFormatException | ArithmeticException ex) {
          remove = Integer.MAX_VALUE;
        }
      }
    }
    return new RewriteRule(throwsList.toArray(new String[0]), unknown, remove);
  }

  private static List<String> strings(JsonParser jp, JsonToken t) throws IOException {
    if (t != JsonToken.START_ARRAY) {
      jp.skipChildren();
      return null;
    }
    List<String> list = new ArrayList<>();
    while ((t = jp.nextToken()) != JsonToken.END_ARRAY && t != null) {
      if (t == JsonToken.VALUE_STRING) {
        list.add(jp.getText());
      } else {
        jp.skipChildren();
      }
    }
    return list;
  }

  private static int[] positions(JsonParser jp, JsonToken t) throws IOException {
    if (t != JsonToken.START_OBJECT) {
      jp.skipChildren();
      return null;
    }
    List<int[]> pairs = new ArrayList<>();
    while (jp.nextToken() == JsonToken.FIELD_NAME) {
      String k = jp.getCurrentName();
      JsonToken v = jp.nextToken();
      try {
        if (v == JsonToken.VALUE_NUMBER_INT) {
          pairs.add(new int[] {Integer.parseInt(k), jp.getIntValue()});
        } else {
          jp.skipChildren();
        }
      } catch (NumberFormatException | IOException ex) {
        // skip this pair
      }
    }
    int[] flat = new int[pairs.size() * 2];
    for (int i = 0; i < pairs.size(); i++) {
      flat[2 * i] = pairs.get(i)[0];
      flat[2 * i + 1] = pairs.get(i)[1];
    }
    return flat;
  }

  private static final byte[] ARROW = {' ', '-', '>', ' '};

  private int indexOf(byte[] needle, int s, int e) {
    outer:
    for (int i = s; i <= e - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (buf[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private int lastIndexOf(byte[] needle, int s, int e) {
    outer:
    for (int i = e - needle.length; i >= s; i--) {
      for (int j = 0; j < needle.length; j++) {
        if (buf[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private int indexOf(byte b, int s, int e) {
    for (int i = s; i < e; i++) {
      if (buf[i] == b) {
        return i;
      }
    }
    return -1;
  }

  private static boolean isDigit(byte b) {
    return b >= '0' && b <= '9';
  }

  private String str(int s, int e) {
    return new String(buf, s, e - s, StandardCharsets.UTF_8);
  }

  private String intern(String s) {
    String prev = names.putIfAbsent(s, s);
    return prev == null ? s : prev;
  }
}
