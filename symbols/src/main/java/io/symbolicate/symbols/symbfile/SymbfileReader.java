package io.symbolicate.symbols.symbfile;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
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

  // files of the current inline chain by depth (for inlinees without a call file)
  private String[] chainFile = new String[16];
  private int lastDepth = -1;

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
        return null;
      }
      long type = readUleb("message type", false);
      messages++;
      if (Long.compareUnsigned(len, MAX_MESSAGE_BYTES) > 0) {
        throw error("claims " + Long.toUnsignedString(len) + " bytes, more than the limit of "
            + MAX_MESSAGE_BYTES + " per message");
      }
      int n = (int) len;
      if (!headerSeen) {
        if (type != MT_HEADER) {
          throw error("is of type " + Long.toUnsignedString(type) + "; a symbfile starts with a Header (type 1)");
        }
        headerSeen = true;
      }
      if (type == MT_RANGE_V1) {
        readBody(n);
        return range(n);
      } else if (type == MT_RETURN_PAD_V1) {
        readBody(n);
        return returnPad(n);
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

  @Override
  public void close() throws IOException {
    in.close();
  }

  // ---------------------------------------------------------------- messages

  private SymbfileRange range(int n) throws SymbfileException {
    RangeV1 r;
    try {
      r = RangeV1.parser().parseFrom(body, 0, n);
    } catch (InvalidProtocolBufferException e) {
      throw error("(RangeV1) does not parse: " + e.getMessage());
    }
    switch (r.getElfVACase()) {
      case DELTAELFVA -> va = addDelta(va, r.getDeltaElfVA());
      case SETELFVA -> va = r.getSetElfVA();
      default -> { } // none: the previous record's address
    }
    long length = r.getLength();
    if (length != 0 && Long.compareUnsigned(length - 1, -1L - va) > 0) {
      throw error("(RangeV1) at 0x" + Long.toHexString(va) + " with length 0x" + Long.toHexString(length)
          + " overflows the 64-bit address space");
    }
    int depth = r.getDepth();
    if (depth < 0 || depth > MAX_DEPTH) {
      throw error("(RangeV1) has depth " + Integer.toUnsignedString(depth) + ", more than the limit of " + MAX_DEPTH);
    }
    if (depth > lastDepth + 1) {
      throw error("(RangeV1) at depth " + depth + " follows "
          + (lastDepth < 0 ? "no range" : "a range at depth " + lastDepth)
          + ": the inline chain has a hole (no enclosing range at depth " + (depth - 1) + ")");
    }
    String function = switch (r.getFuncCase()) {
      case FUNCSTR -> r.getFuncStr();
      case FUNCREF -> string(r.getFuncRef(), "funcRef");
      default -> null;
    };
    String file = switch (r.getFileCase()) {
      case FILESTR -> r.getFileStr();
      case FILEREF -> string(r.getFileRef(), "fileRef");
      default -> null;
    };
    String callFile = switch (r.getCallFileCase()) {
      case CALLFILESTR -> r.getCallFileStr();
      case CALLFILEREF -> string(r.getCallFileRef(), "callFileRef");
      default -> depth > 0 ? chainFile[depth - 1] : null;
    };
    if (depth == chainFile.length) {
      chainFile = Arrays.copyOf(chainFile, depth * 2);
    }
    chainFile[depth] = file;
    lastDepth = depth;
    long[] offsets;
    int[] lines;
    if (r.hasLineTable()) {
      LineTable t = r.getLineTable();
      int k = t.getOffsetCount();
      if (k != t.getLineNumberCount()) {
        throw error("(RangeV1) has a line table of " + k + " offsets but " + t.getLineNumberCount() + " line numbers");
      }
      offsets = new long[k];
      lines = new int[k];
      long sum = 0;
      long room = -1L - va; // the largest offset that stays inside 64 bits
      for (int i = 0; i < k; i++) {
        sum += Integer.toUnsignedLong(t.getOffset(i));
        if (Long.compareUnsigned(sum, room) > 0) {
          throw error("(RangeV1) at 0x" + Long.toHexString(va) + " has a line-table offset that overflows the 64-bit address space");
        }
        offsets[i] = sum;
        lines[i] = t.getLineNumber(i);
      }
    } else {
      offsets = EMPTY_LONGS;
      lines = EMPTY_INTS;
    }
    return new SymbfileRange(va, length, function, file, r.getCallLine(), callFile, depth, offsets, lines);
  }

  private static final long[] EMPTY_LONGS = new long[0];
  private static final int[] EMPTY_INTS = new int[0];

  private SymbfileReturnPad returnPad(int n) throws SymbfileException {
    ReturnPadV1 p;
    try {
      p = ReturnPadV1.parser().parseFrom(body, 0, n);
    } catch (InvalidProtocolBufferException e) {
      throw error("(ReturnPadV1) does not parse: " + e.getMessage());
    }
    switch (p.getElfVACase()) {
      case DELTAELFVA -> va = addDelta(va, p.getDeltaElfVA());
      case SETELFVA -> va = p.getSetElfVA();
      default -> { }
    }
    int k = p.getFuncCount();
    if (p.getFileCount() != k || p.getLineCount() != k) {
      throw error("(ReturnPadV1) has " + k + " functions, " + p.getFileCount() + " files and "
          + p.getLineCount() + " lines; they must be as many");
    }
    String[] functions = new String[k];
    String[] files = new String[k];
    int[] lines = new int[k];
    for (int i = 0; i < k; i++) {
      functions[i] = string(p.getFunc(i), "func");
      files[i] = string(p.getFile(i), "file");
      lines[i] = p.getLine(i);
    }
    return new SymbfileReturnPad(va, functions, files, lines);
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
  }

  private String string(int ref, String field) throws SymbfileException {
    if (ref < 0 || ref >= tableCount) {
      throw error(tableCount < 0
          ? "refers to string " + Integer.toUnsignedString(ref) + " (" + field + ") before any string table"
          : "refers to string " + Integer.toUnsignedString(ref) + " (" + field + ") of a table of " + tableCount);
    }
    String s = tableCache[ref];
    if (s == null) {
      s = new String(table, tableStart[ref], tableLen[ref], StandardCharsets.UTF_8);
      tableCache[ref] = s;
    }
    return s;
  }

  private long addDelta(long from, long delta) throws SymbfileException {
    long to = from + delta;
    if (delta >= 0 ? Long.compareUnsigned(to, from) < 0 : Long.compareUnsigned(to, from) > 0) {
      throw error("moves the address 0x" + Long.toHexString(from) + " by " + delta
          + ", outside the 64-bit address space");
    }
    return to;
  }

  private SymbfileException error(String what) {
    return new SymbfileException("symbfile message " + messages + " (at byte " + messageOffset + ") " + what);
  }

  // ---------------------------------------------------------------- framing

  private void readMagic() throws IOException, SymbfileException {
    for (int i = 0; i < MAGIC.length; i++) {
      int b = readByte();
      if (b != MAGIC[i]) {
        throw new SymbfileException(b < 0 && i == 0 ? "empty input: not a symbfile"
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
        throw new SymbfileException("symbfile is truncated in the " + what + " of message " + (messages + 1)
            + " (at byte " + bytesRead() + ")");
      }
      if (i == MAX_VARINT_BYTES - 1 && (b & 0xFE) != 0) {
        throw new SymbfileException("symbfile has a " + what + " varint of more than 64 bits (message "
            + (messages + 1) + ", at byte " + bytesRead() + ")");
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
        body = Arrays.copyOf(body, (int) Math.min(MAX_MESSAGE_BYTES, Math.max(got + k, 2L * body.length)));
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
