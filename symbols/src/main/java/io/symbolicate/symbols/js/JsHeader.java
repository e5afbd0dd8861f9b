package io.symbolicate.symbols.js;

/**
 * The decoded table header: counts and identity; sources and names live in the pages.
 * {@code firstMappingKey} is -1 for a map without segments.
 */
public record JsHeader(
    int formatVersion,
    long segments,
    int sources,
    int names,
    int mappingPages,
    int contentPages,
    String file,
    String debugId,
    long firstMappingKey) {

  private static final int MAGIC = 0x4A534D48; // "JSMH"

  byte[] encode() {
    ByteSink s = new ByteSink(64);
    s.writeLong(((long) MAGIC << 32) | formatVersion);
    s.writeVar(segments);
    s.writeVar(sources);
    s.writeVar(names);
    s.writeVar(mappingPages);
    s.writeVar(contentPages);
    s.writeString(file);
    s.writeString(debugId);
    s.writeLong(firstMappingKey);
    return s.toByteArray();
  }

  public static JsHeader decode(byte[] bytes) {
    ByteSource in = new ByteSource(bytes);
    long m = in.readLong();
    if ((int) (m >>> 32) != MAGIC) {
      throw new IllegalArgumentException("not a js table header");
    }
    int version = (int) m;
    if (version != JsTable.FORMAT_VERSION) {
      throw new IllegalArgumentException("unsupported js table format version " + version);
    }
    return new JsHeader(
        version,
        in.readVar(),
        in.readVarInt(),
        in.readVarInt(),
        in.readVarInt(),
        in.readVarInt(),
        in.readString(),
        in.readString(),
        in.readLong());
  }
}
