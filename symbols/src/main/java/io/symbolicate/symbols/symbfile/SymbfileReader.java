package io.symbolicate.symbols.symbfile;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import io.symbolicate.symbols.symbfile.proto.Header;
import io.symbolicate.symbols.symbfile.proto.LineTable;
import io.symbolicate.symbols.symbfile.proto.RangeV1;
import io.symbolicate.symbols.symbfile.proto.ReturnPadV1;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Streams the records of a symbfile: the magic {@code symbfile}, then messages framed as
 * [ULEB128 body length][ULEB128 message type][protobuf body]. Holds one message body at a time
 * (at most {@link #MAX_MESSAGE_BYTES}), the current string table and the files of the current
 * inline chain; never the file.
 *
 * <p>Semantics: a Header must come first; the ELF VA of a range or return pad is relative to
 * the previous record of either kind (or set absolutely); {@code *Ref} fields index the most
 * recent string table, which a new one replaces; line-table offsets are a running sum; an
 * inlinee without a call file was called from its parent's file; messages of unknown types are
 * skipped. Anything else that is wrong is a {@link SymbfileException} naming the message and
 * byte offset: the reader lets out nothing unchecked.
 */
public final class SymbfileReader implements AutoCloseable {
  public static final byte[] MAGIC = "symbfile".getBytes(StandardCharsets.US_ASCII);

  /** Largest message body accepted; the claim is checked before anything is read or allocated. */
  public static final int MAX_MESSAGE_BYTES = 16 << 20;

  /** Deepest inline nesting accepted (real chains are tens deep). */
  public static final int MAX_DEPTH = 1 << 16;

  /** A ULEB128 of 64 bits takes at most this many bytes. */
  static final int MAX_VARINT_BYTES = 10;

  static final int MT_HEADER = 1;
  static final int MT_RANGE_V1 = 2;
  static final int MT_RETURN_PAD_V1 = 3;
  static final int MT_STRING_TABLE_V1 = 4;
  private static final int STRINGS_TAG = (1 << 3) | 2;
  private static final int READ_CHUNK = 1 << 16;

  /** What {@link #advance} found. */
  static final int END = 0;

  static final int RANGE = 1;
  static final int RETURN_PAD = 2;

  /** The string fields of a range, and how each is given. */
  static final int FUNC = 0;

  static final int FILE = 1;
  static final int CALL_FILE = 2;
  static final int ABSENT = 0;
  static final int REF = 1;
  static final int INLINE = 2;

  private static final int VA_NONE = 0;
  private static final int VA_DELTA = 1;
  private static final int VA_SET = 2;
  // tags (field number and wire type) of the fields, from the generated classes' field numbers
  private static final int R_DELTA_VA =
      RangeV1.DELTAELFVA_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_VARINT;
  private static final int R_SET_VA =
      RangeV1.SETELFVA_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_VARINT;
  private static final int R_LENGTH = RangeV1.LENGTH_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_VARINT;
  private static final int R_FUNC_STR =
      RangeV1.FUNCSTR_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  private static final int R_FUNC_REF =
      RangeV1.FUNCREF_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_VARINT;
  private static final int R_FILE_STR =
      RangeV1.FILESTR_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  private static final int R_FILE_REF =
      RangeV1.FILEREF_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_VARINT;
  private static final int R_CALL_LINE =
      RangeV1.CALLLINE_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_VARINT;
  private static final int R_CALL_FILE_STR =
      RangeV1.CALLFILESTR_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  private static final int R_CALL_FILE_REF =
      RangeV1.CALLFILEREF_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_VARINT;
  private static final int R_DEPTH = RangeV1.DEPTH_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_VARINT;
  private static final int R_LINE_TABLE =
      RangeV1.LINETABLE_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  private static final int L_OFFSET =
      LineTable.OFFSET_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_VARINT;
  private static final int L_OFFSET_PACKED =
      LineTable.OFFSET_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  private static final int L_LINE =
      LineTable.LINENUMBER_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_VARINT;
  private static final int L_LINE_PACKED =
      LineTable.LINENUMBER_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  private static final int P_DELTA_VA =
      ReturnPadV1.DELTAELFVA_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_VARINT;
  private static final int P_SET_VA =
      ReturnPadV1.SETELFVA_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_VARINT;
  private static final int P_FUNC = ReturnPadV1.FUNC_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_VARINT;
  private static final int P_FUNC_PACKED =
      ReturnPadV1.FUNC_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  private static final int P_FILE = ReturnPadV1.FILE_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_VARINT;
  private static final int P_FILE_PACKED =
      ReturnPadV1.FILE_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;
  private static final int P_LINE = ReturnPadV1.LINE_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_VARINT;
  private static final int P_LINE_PACKED =
      ReturnPadV1.LINE_FIELD_NUMBER << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;

  private final InputStream in;
  private final byte[] buf = new byte[READ_CHUNK];
  private int pos;
  private int lim;
  private long bufStart; // file offset of buf[0]
  private boolean eof;
  private byte[] body = new byte[1024];

  private boolean magicRead;
  private boolean headerSeen;
  private long messages;
  private long skipped;
  private long messageOffset;
  private long va;

  // the current string table: the StringTableV1 body, where each string starts, its length
  private byte[] table;
  private int[] tableStart;
  private int[] tableLen;
  private String[] tableCache;
  private int tableCount = -1;

  private int tableGeneration;

  // the current record, decoded in place (the arrays only grow)
  private long length;
  private int depth;
  private int callLine;
  private final int[] strKind = new int[3];
  private final int[] strRef = new int[3];
  private final int[] strOff = new int[3];
  private final int[] strLen = new int[3];
  private int lineCount;
  private int[] rawOffsets = new int[64];
  private long[] lineOffsets = new long[64];
  private int[] lineNumbers = new int[64];
  private int padDepth;
  private int[] padFunc = new int[16];
  private int[] padFile = new int[16];
  private int[] padLine = new int[16];
  private int lastDepth = -1;

  // files of the current inline chain by depth, for next()'s records (inlinees without a call file)
  private String[] chainFile = new String[16];

  /** Reads from {@code in}, starting at the magic. */
  public SymbfileReader(InputStream in) {
    this.in = in;
  }

  /** Messages read so far, of every type. */
  public long messageCount() {
    return messages;
  }

  /** Messages of unknown types skipped so far. */
  public long skippedCount() {
    return skipped;
  }

  /** Bytes consumed so far. */
  public long bytesRead() {
    return bufStart + pos;
  }

  /** The next range or return pad, or null at the end of the file. */
  public SymbfileRecord next() throws IOException, SymbfileException {
    int kind = advance();
    if (kind == RANGE) {
      String callFile = stringOrNull(CALL_FILE);
      if (kindOf(CALL_FILE) == ABSENT && depth > 0) {
        callFile = chainFile[depth - 1];
      }
      String file = stringOrNull(FILE);
      if (depth == chainFile.length) {
        chainFile = Arrays.copyOf(chainFile, depth * 2);
      }
      chainFile[depth] = file;
      return new SymbfileRange(
          va,
          length,
          stringOrNull(FUNC),
          file,
          callLine,
          callFile,
          depth,
          Arrays.copyOf(lineOffsets, lineCount),
          Arrays.copyOf(lineNumbers, lineCount));
    }
    if (kind == RETURN_PAD) {
      String[] functions = new String[padDepth];
      String[] files = new String[padDepth];
      for (int i = 0; i < padDepth; i++) {
        functions[i] = string(padFunc[i]);
        files[i] = string(padFile[i]);
      }
      return new SymbfileReturnPad(va, functions, files, Arrays.copyOf(padLine, padDepth));
    }
    return null;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  // ---------------------------------------------------------------- the current record (no
  // allocation)

  /**
   * Reads up to the next range or return pad and decodes it into this reader's fields, which
   * the accessors below give until the next call; returns {@link #RANGE}, {@link #RETURN_PAD} or
   * {@link #END}. Every check of {@link #next} is made here: a record it returns is valid.
   * This is the converter's path: nothing is allocated per record (buffers only grow).
   */
  int advance() throws IOException, SymbfileException {
    if (!magicRead) {
      readMagic();
      magicRead = true;
    }
    while (true) {
      messageOffset = bytesRead();
      long len = readUleb("message length", true);
      if (eof) {
        if (!headerSeen) {
          throw new SymbfileException("the file has no Header message after its magic");
        }
        return END;
      }
      long type = readUleb("message type", false);
      messages++;
      if (Long.compareUnsigned(len, MAX_MESSAGE_BYTES) > 0) {
        throw error(
            "claims "
                + Long.toUnsignedString(len)
                + " bytes, more than the limit of "
                + MAX_MESSAGE_BYTES
                + " per message");
      }
      int n = (int) len;
      if (!headerSeen) {
        if (type != MT_HEADER) {
          throw error(
              "is of type "
                  + Long.toUnsignedString(type)
                  + "; a symbfile starts with a Header (type 1)");
        }
        headerSeen = true;
      }
      if (type == MT_RANGE_V1) {
        readBody(n);
        range(n);
        return RANGE;
      } else if (type == MT_RETURN_PAD_V1) {
        readBody(n);
        returnPad(n);
        return RETURN_PAD;
      } else if (type == MT_STRING_TABLE_V1) {
        readBody(n);
        stringTable(n);
      } else if (type == MT_HEADER) {
        readBody(n);
        try {
          Header.parser().parseFrom(body, 0, n);
        } catch (InvalidProtocolBufferException e) {
          throw error("(Header) does not parse: " + e.getMessage());
        }
      } else {
        skip(n);
        skipped++;
      }
    }
  }

  /** ELF virtual address of the current record (unsigned). */
  long elfVa() {
    return va;
  }

  /** Range: length in bytes (unsigned; 0 covers nothing). */
  long length() {
    return length;
  }

  /** Range: depth in its inline chain (0: the function itself). */
  int depth() {
    return depth;
  }

  /** Range: line of the call into this inlinee. */
  int callLine() {
    return callLine;
  }

  /** Range: entries of its line table; offsets summed (from {@link #elfVa}). */
  int lineCount() {
    return lineCount;
  }

  long[] lineOffsets() {
    return lineOffsets;
  }

  int[] lineNumbers() {
    return lineNumbers;
  }

  /** A range's string field ({@link #FUNC}, {@link #FILE}, {@link #CALL_FILE}): ABSENT, REF or INLINE. */
  int kindOf(int field) {
    return strKind[field];
  }

  /** The string-table index of a REF field. */
  int refOf(int field) {
    return strRef[field];
  }

  /** The array holding a present string field's UTF-8 bytes (the body or the string table). */
  byte[] bytesOf(int field) {
    return strKind[field] == REF ? table : body;
  }

  int offsetOf(int field) {
    return strKind[field] == REF ? tableStart[strRef[field]] : strOff[field];
  }

  int lengthOf(int field) {
    return strKind[field] == REF ? tableLen[strRef[field]] : strLen[field];
  }

  /** Return pad: its frames, outermost first, and each frame's string-table refs and line. */
  int padDepth() {
    return padDepth;
  }

  int[] padFuncs() {
    return padFunc;
  }

  int[] padFiles() {
    return padFile;
  }

  int[] padLines() {
    return padLine;
  }

  /** Counts the string tables read: a reader of refs drops what it derived from them when this changes. */
  int tableGeneration() {
    return tableGeneration;
  }

  /** Strings in the current table. */
  int tableSize() {
    return Math.max(tableCount, 0);
  }

  byte[] tableBytes() {
    return table;
  }

  int tableOffset(int ref) {
    return tableStart[ref];
  }

  int tableLength(int ref) {
    return tableLen[ref];
  }

  // ---------------------------------------------------------------- messages

  /**
   * Decodes a RangeV1 with protobuf-java's CodedInputStream, field by field, into this reader's
   * fields. Wire semantics as protobuf-java's generated parser: the last value of a field (or of
   * a oneof) wins, a repeated field is accepted packed or not, a lineTable given twice merges,
   * a field of an unknown number or wire type is skipped, a stray end-group tag is an error,
   * and inline strings must be valid UTF-8 (proto3 strings).
   */
  private void range(int n) throws SymbfileException {
    int vaCase = VA_NONE;
    long vaValue = 0;
    length = 0;
    depth = 0;
    callLine = 0;
    strKind[FUNC] = strKind[FILE] = strKind[CALL_FILE] = ABSENT;
    int offCount = 0;
    lineCount = 0;
    CodedInputStream c = CodedInputStream.newInstance(body, 0, n);
    try {
      for (int tag = c.readTag(); tag != 0; tag = c.readTag()) {
        switch (tag) {
          case R_DELTA_VA -> {
            vaCase = VA_DELTA;
            vaValue = c.readSInt64();
          }
          case R_SET_VA -> {
            vaCase = VA_SET;
            vaValue = c.readUInt64();
          }
          case R_LENGTH -> length = c.readUInt64();
          case R_FUNC_STR -> inlineString(c, FUNC);
          case R_FUNC_REF -> ref(c, FUNC);
          case R_FILE_STR -> inlineString(c, FILE);
          case R_FILE_REF -> ref(c, FILE);
          case R_CALL_LINE -> callLine = c.readUInt32();
          case R_CALL_FILE_STR -> inlineString(c, CALL_FILE);
          case R_CALL_FILE_REF -> ref(c, CALL_FILE);
          case R_DEPTH -> depth = c.readUInt32();
          case R_LINE_TABLE -> {
            int limit = c.pushLimit(c.readRawVarint32());
            for (int t = c.readTag(); t != 0; t = c.readTag()) {
              switch (t) {
                case L_OFFSET -> rawOffsets = add(rawOffsets, offCount++, c.readUInt32());
                case L_OFFSET_PACKED -> offCount = packed(c, offCount, true);
                case L_LINE -> lineNumbers = add(lineNumbers, lineCount++, c.readUInt32());
                case L_LINE_PACKED -> lineCount = packed(c, lineCount, false);
                default -> skipUnknown(c, t);
              }
            }
            c.popLimit(limit);
          }
          default -> skipUnknown(c, tag);
        }
      }
    } catch (IOException e) { // over an array: InvalidProtocolBufferException
      throw error("(RangeV1) does not parse: " + e.getMessage());
    }
    setVa(vaCase, vaValue);
    if (length != 0 && Long.compareUnsigned(length - 1, -1L - va) > 0) {
      throw error(
          "(RangeV1) at 0x"
              + Long.toHexString(va)
              + " with length 0x"
              + Long.toHexString(length)
              + " overflows the 64-bit address space");
    }
    if (depth < 0 || depth > MAX_DEPTH) {
      throw error(
          "(RangeV1) has depth "
              + Integer.toUnsignedString(depth)
              + ", more than the limit of "
              + MAX_DEPTH);
    }
    if (depth > lastDepth + 1) {
      throw error(
          "(RangeV1) at depth "
              + depth
              + " follows "
              + (lastDepth < 0 ? "no range" : "a range at depth " + lastDepth)
              + ": the inline chain has a hole (no enclosing range at depth "
              + (depth - 1)
              + ")");
    }
    checkFieldRef(FUNC, "funcRef");
    checkFieldRef(FILE, "fileRef");
    checkFieldRef(CALL_FILE, "callFileRef");
    lastDepth = depth;
    if (offCount != lineCount) {
      throw error(
          "(RangeV1) has a line table of "
              + offCount
              + " offsets but "
              + lineCount
              + " line numbers");
    }
    if (lineOffsets.length < lineCount) {
      lineOffsets = new long[Math.max(lineCount, 2 * lineOffsets.length)];
    }
    long sum = 0;
    long room = -1L - va; // the largest offset that stays inside 64 bits
    for (int i = 0; i < lineCount; i++) {
      sum += Integer.toUnsignedLong(rawOffsets[i]);
      if (Long.compareUnsigned(sum, room) > 0) {
        throw error(
            "(RangeV1) at 0x"
                + Long.toHexString(va)
                + " has a line-table offset that overflows the 64-bit address space");
      }
      lineOffsets[i] = sum;
    }
  }

  /** Decodes a ReturnPadV1 like {@link #range} does a RangeV1. */
  private void returnPad(int n) throws SymbfileException {
    int vaCase = VA_NONE;
    long vaValue = 0;
    int funcs = 0;
    int files = 0;
    int lines = 0;
    CodedInputStream c = CodedInputStream.newInstance(body, 0, n);
    try {
      for (int tag = c.readTag(); tag != 0; tag = c.readTag()) {
        switch (tag) {
          case P_DELTA_VA -> {
            vaCase = VA_DELTA;
            vaValue = c.readSInt64();
          }
          case P_SET_VA -> {
            vaCase = VA_SET;
            vaValue = c.readUInt64();
          }
          case P_FUNC -> padFunc = add(padFunc, funcs++, c.readUInt32());
          case P_FUNC_PACKED -> {
            padFunc = packedInto(c, padFunc, funcs);
            funcs = packedCount;
          }
          case P_FILE -> padFile = add(padFile, files++, c.readUInt32());
          case P_FILE_PACKED -> {
            padFile = packedInto(c, padFile, files);
            files = packedCount;
          }
          case P_LINE -> padLine = add(padLine, lines++, c.readUInt32());
          case P_LINE_PACKED -> {
            padLine = packedInto(c, padLine, lines);
            lines = packedCount;
          }
          default -> skipUnknown(c, tag);
        }
      }
    } catch (IOException e) { // over an array: InvalidProtocolBufferException
      throw error("(ReturnPadV1) does not parse: " + e.getMessage());
    }
    setVa(vaCase, vaValue);
    if (files != funcs || lines != funcs) {
      throw error(
          "(ReturnPadV1) has "
              + funcs
              + " functions, "
              + files
              + " files and "
              + lines
              + " lines; they must be as many");
    }
    for (int i = 0; i < funcs; i++) {
      checkRef(padFunc[i], "func");
      checkRef(padFile[i], "file");
    }
    padDepth = funcs;
  }

  private void setVa(int vaCase, long value) throws SymbfileException {
    if (vaCase == VA_DELTA) {
      va = addDelta(va, value);
    } else if (vaCase == VA_SET) {
      va = value;
    } // none: the previous record's address
  }

  private void inlineString(CodedInputStream c, int field) throws IOException {
    int len = c.readRawVarint32();
    int at = c.getTotalBytesRead();
    c.skipRawBytes(len); // checks len against what is left
    if (!Utf8Check.isValid(body, at, len)) {
      throw new InvalidProtocolBufferException("Protocol message had invalid UTF-8.");
    }
    strKind[field] = INLINE;
    strOff[field] = at;
    strLen[field] = len;
  }

  private void ref(CodedInputStream c, int field) throws IOException {
    strKind[field] = REF;
    strRef[field] = c.readUInt32();
  }

  private void checkFieldRef(int field, String name) throws SymbfileException {
    if (strKind[field] == REF) {
      checkRef(strRef[field], name);
    }
  }

  private static void skipUnknown(CodedInputStream c, int tag) throws IOException {
    if (!c.skipField(tag)) {
      throw new InvalidProtocolBufferException(
          "Protocol message end-group tag did not match expected tag.");
    }
  }

  private static int[] add(int[] a, int i, int v) {
    int[] b = i < a.length ? a : Arrays.copyOf(a, 2 * a.length);
    b[i] = v;
    return b;
  }

  private int packedCount;

  /** Appends a packed run of uint32s to {@code a} from index {@code from}; the new count in packedCount. */
  private int[] packedInto(CodedInputStream c, int[] a, int from) throws IOException {
    int limit = c.pushLimit(c.readRawVarint32());
    int i = from;
    while (c.getBytesUntilLimit() > 0) {
      a = add(a, i++, c.readUInt32());
    }
    c.popLimit(limit);
    packedCount = i;
    return a;
  }

  /** A packed run of the line table's offsets or line numbers; returns the new count. */
  private int packed(CodedInputStream c, int from, boolean offsets) throws IOException {
    if (offsets) {
      rawOffsets = packedInto(c, rawOffsets, from);
    } else {
      lineNumbers = packedInto(c, lineNumbers, from);
    }
    return packedCount;
  }

  /**
   * Indexes the strings of a StringTableV1 where they lie in its body instead of making a List
   * of Strings up front: a 16 MiB table of one-byte strings would be 5 million String objects
   * (~300 MB of heap); as offsets it is at most 64 MB, and each string is decoded on first use.
   */
  private void stringTable(int n) throws SymbfileException {
    byte[] t = Arrays.copyOf(body, n);
    int[] start = new int[16];
    int[] len = new int[16];
    int count = 0;
    CodedInputStream c = CodedInputStream.newInstance(t, 0, n);
    try {
      while (!c.isAtEnd()) {
        int tag = c.readTag();
        if (tag == STRINGS_TAG) {
          int sl = c.readRawVarint32();
          int at = c.getTotalBytesRead();
          c.skipRawBytes(sl); // checks sl against what is left
          if (count == start.length) {
            start = Arrays.copyOf(start, count * 2);
            len = Arrays.copyOf(len, count * 2);
          }
          start[count] = at;
          len[count] = sl;
          count++;
        } else if (!c.skipField(tag)) {
          break;
        }
      }
    } catch (IOException e) {
      throw error("(StringTableV1) does not parse: " + e.getMessage());
    }
    table = t;
    tableStart = start;
    tableLen = len;
    tableCount = count;
    tableCache = new String[count];
    tableGeneration++;
  }

  private void checkRef(int ref, String field) throws SymbfileException {
    if (ref < 0 || ref >= tableCount) {
      throw error(
          tableCount < 0
              ? "refers to string "
                  + Integer.toUnsignedString(ref)
                  + " ("
                  + field
                  + ") before any string table"
              : "refers to string "
                  + Integer.toUnsignedString(ref)
                  + " ("
                  + field
                  + ") of a table of "
                  + tableCount);
    }
  }

  /** A checked reference's string, decoded on first use. */
  private String string(int ref) {
    String s = tableCache[ref];
    if (s == null) {
      s = new String(table, tableStart[ref], tableLen[ref], StandardCharsets.UTF_8);
      tableCache[ref] = s;
    }
    return s;
  }

  private String stringOrNull(int field) {
    return switch (strKind[field]) {
      case REF -> string(strRef[field]);
      case INLINE -> new String(body, strOff[field], strLen[field], StandardCharsets.UTF_8);
      default -> null;
    };
  }

  private long addDelta(long from, long delta) throws SymbfileException {
    long to = from + delta;
    if (delta >= 0 ? Long.compareUnsigned(to, from) < 0 : Long.compareUnsigned(to, from) > 0) {
      throw error(
          "moves the address 0x"
              + Long.toHexString(from)
              + " by "
              + delta
              + ", outside the 64-bit address space");
    }
    return to;
  }

  private SymbfileException error(String what) {
    return new SymbfileException(
        "symbfile message " + messages + " (at byte " + messageOffset + ") " + what);
  }

  // ---------------------------------------------------------------- framing

  private void readMagic() throws IOException, SymbfileException {
    for (int i = 0; i < MAGIC.length; i++) {
      int b = readByte();
      if (b != MAGIC[i]) {
        throw new SymbfileException(
            b < 0 && i == 0
                ? "empty input: not a symbfile"
                : "not a symbfile: the file does not start with the magic 'symbfile'");
      }
    }
  }

  /** Reads a ULEB128 of up to 64 bits; at a clean end of input (eofOk, no byte read) sets eof. */
  private long readUleb(String what, boolean eofOk) throws IOException, SymbfileException {
    long v = 0;
    for (int i = 0; i < MAX_VARINT_BYTES; i++) {
      int b = readByte();
      if (b < 0) {
        if (i == 0 && eofOk) {
          eof = true;
          return 0;
        }
        throw new SymbfileException(
            "symbfile is truncated in the "
                + what
                + " of message "
                + (messages + 1)
                + " (at byte "
                + bytesRead()
                + ")");
      }
      if (i == MAX_VARINT_BYTES - 1 && (b & 0xFE) != 0) {
        throw new SymbfileException(
            "symbfile has a "
                + what
                + " varint of more than 64 bits (message "
                + (messages + 1)
                + ", at byte "
                + bytesRead()
                + ")");
      }
      v |= (long) (b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new IllegalStateException("unreachable: the tenth byte ends the varint or fails");
  }

  private int readByte() throws IOException {
    if (pos == lim && !fill()) {
      return -1;
    }
    return buf[pos++] & 0xFF;
  }

  private boolean fill() throws IOException {
    bufStart += lim;
    pos = 0;
    lim = 0;
    int n = in.read(buf, 0, buf.length);
    if (n <= 0) {
      return false;
    }
    lim = n;
    return true;
  }

  /**
   * Reads n body bytes, growing the body buffer as bytes arrive (never to the claimed size
   * ahead of them: a short file claiming 16 MiB costs what it holds).
   */
  private void readBody(int n) throws IOException, SymbfileException {
    int got = 0;
    while (got < n) {
      if (pos == lim && !fill()) {
        throw error("is truncated: " + got + " of its " + n + " bytes are there");
      }
      int k = Math.min(n - got, lim - pos);
      if (body.length < got + k) {
        body =
            Arrays.copyOf(
                body, (int) Math.min(MAX_MESSAGE_BYTES, Math.max(got + k, 2L * body.length)));
      }
      System.arraycopy(buf, pos, body, got, k);
      pos += k;
      got += k;
    }
  }

  private void skip(int n) throws IOException, SymbfileException {
    int left = n;
    while (left > 0) {
      if (pos == lim && !fill()) {
        throw error("is truncated: " + (n - left) + " of its " + n + " bytes are there");
      }
      int k = Math.min(left, lim - pos);
      pos += k;
      left -= k;
    }
  }
}
