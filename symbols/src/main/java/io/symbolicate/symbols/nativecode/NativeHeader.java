package io.symbolicate.symbols.nativecode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Header of a native compact table: module identity, counts and the corrupt flag. Small (a few
 * hundred bytes); a lookup needs it plus the one page its address falls in.
 *
 * @param badLineSamples the first few malformed lines, "line N: reason"
 */
public record NativeHeader(
    int formatVersion,
    String os,
    String arch,
    String debugId,
    String moduleName,
    String codeId,
    String codeFile,
    long functionCount,
    long publicCount,
    long lineCount,
    long inlineRangeCount,
    long fileCount,
    long inlineOriginCount,
    long pageCount,
    long badLineCount,
    long droppedFunctionCount,
    long sourceBytes,
    List<String> badLineSamples) {

  static final int MAGIC = 0x4E53594D; // "NSYM"

  public boolean corrupt() {
    return badLineCount > 0;
  }

  /**
   * The module name Mozilla's symbolication API reports: the code file from INFO CODE_ID when
   * present, else the MODULE name.
   */
  public String displayName() {
    return codeFile != null && !codeFile.isEmpty() ? codeFile : moduleName;
  }

  /**
   * Debug id as symbolic prints it: the GUID/build-id part as a lowercase UUID, with the age
   * appended after a dash when it is not zero ("3249D99D...69361" -> "3249d99d-...-6936-1").
   */
  public String normalizedDebugId() {
    String id = debugId == null ? "" : debugId;
    if (id.length() < 33 || !id.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
      return id.toLowerCase(Locale.ROOT);
    }
    String g = id.substring(0, 32).toLowerCase(Locale.ROOT);
    String age = id.substring(32).toLowerCase(Locale.ROOT).replaceFirst("^0+(?=.)", "");
    String uuid =
        g.substring(0, 8)
            + "-"
            + g.substring(8, 12)
            + "-"
            + g.substring(12, 16)
            + "-"
            + g.substring(16, 20)
            + "-"
            + g.substring(20);
    return age.equals("0") ? uuid : uuid + "-" + age;
  }

  byte[] encode() {
    ByteWriter w = new ByteWriter(256);
    w.writeVar(MAGIC);
    w.writeVar(formatVersion);
    for (String s : new String[] {os, arch, debugId, moduleName, codeId, codeFile}) {
      byte[] b = (s == null ? "" : s).getBytes(StandardCharsets.UTF_8);
      w.writeBlob(b, 0, b.length);
    }
    for (long v :
        new long[] {
          functionCount,
          publicCount,
          lineCount,
          inlineRangeCount,
          fileCount,
          inlineOriginCount,
          pageCount,
          badLineCount,
          droppedFunctionCount,
          sourceBytes
        }) {
      w.writeVar(v);
    }
    w.writeVar(badLineSamples.size());
    for (String s : badLineSamples) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      w.writeBlob(b, 0, b.length);
    }
    return w.toByteArray();
  }

  public static NativeHeader decode(byte[] bytes) {
    ByteReader r = new ByteReader(bytes);
    if (r.readVar() != MAGIC) {
      throw new CorruptTableException("not a native table header (bad magic)");
    }
    int version = r.readInt();
    if (version != NativeTableBuilder.FORMAT_VERSION) {
      throw new CorruptTableException("unsupported native table format version " + version);
    }
    String[] s = new String[6];
    for (int i = 0; i < s.length; i++) {
      s[i] = r.readString();
    }
    long[] c = new long[10];
    for (int i = 0; i < c.length; i++) {
      c[i] = r.readVar();
    }
    int n = r.readCount();
    List<String> samples = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      samples.add(r.readString());
    }
    return new NativeHeader(
        version,
        s[0],
        s[1],
        s[2],
        s[3],
        s[4],
        s[5],
        c[0],
        c[1],
        c[2],
        c[3],
        c[4],
        c[5],
        c[6],
        c[7],
        c[8],
        c[9],
        List.copyOf(samples));
  }
}
