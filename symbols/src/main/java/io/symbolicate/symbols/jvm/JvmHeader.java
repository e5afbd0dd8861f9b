package io.symbolicate.symbols.jvm;

import io.symbolicate.symbols.table.TableKind;

/**
 * Table header: where the mapping came from and how big it is. Lookups only need the format
 * version from it; the rest is for stats and for matching events (map id).
 */
public record JvmHeader(
    int formatVersion,
    String compiler,
    String compilerVersion,
    int minApi,
    String mapId,
    String mapHash,
    String mapVersion,
    int classCount,
    int methodLineCount,
    int pageCount,
    int malformedLines,
    int duplicateClasses,
    int outlineMethods) {

  static final byte[] MAGIC = {'J', 'V', 'M', 'T'};

  byte[] encode() {
    Bytes.Writer w = new Bytes.Writer();
    for (byte b : MAGIC) {
      w.u8(b);
    }
    w.u8(TableKind.JVM.tag());
    w.varint(formatVersion);
    w.string(compiler);
    w.string(compilerVersion);
    w.varint(minApi + 1L);
    w.string(mapId);
    w.string(mapHash);
    w.string(mapVersion);
    w.varint(classCount);
    w.varint(methodLineCount);
    w.varint(pageCount);
    w.varint(malformedLines);
    w.varint(duplicateClasses);
    w.varint(outlineMethods);
    return w.toByteArray();
  }

  public static JvmHeader decode(byte[] bytes) {
    Bytes.Reader r = new Bytes.Reader(bytes);
    for (byte b : MAGIC) {
      if (r.u8() != (b & 0xff)) {
        throw new MappingException("not a JVM symbol table (bad magic)");
      }
    }
    if (r.u8() != TableKind.JVM.tag()) {
      throw new MappingException("not a JVM symbol table (wrong kind)");
    }
    int version = r.varint();
    if (version != JvmTable.FORMAT_VERSION) {
      throw new MappingException(
          "unsupported JVM table format version "
              + version
              + " (this build reads "
              + JvmTable.FORMAT_VERSION
              + ")");
    }
    return new JvmHeader(
        version,
        empty(r.string()),
        empty(r.string()),
        r.varint() - 1,
        empty(r.string()),
        empty(r.string()),
        empty(r.string()),
        r.varint(),
        r.varint(),
        r.varint(),
        r.varint(),
        r.varint(),
        r.varint());
  }

  private static String empty(String s) {
    return s.isEmpty() ? null : s;
  }
}
