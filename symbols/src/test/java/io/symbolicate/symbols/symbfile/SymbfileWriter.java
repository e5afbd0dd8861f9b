package io.symbolicate.symbols.symbfile;

import com.google.protobuf.MessageLite;
import io.symbolicate.symbols.symbfile.proto.LineTable;
import io.symbolicate.symbols.symbfile.proto.RangeV1;
import io.symbolicate.symbols.symbfile.proto.ReturnPadV1;
import io.symbolicate.symbols.symbfile.proto.StringTableV1;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes symbfiles for tests and benchmarks (a test utility, not a product writer): the magic,
 * a Header, then what it is given. Strings in the current string table are written as
 * references, others inline; the first record's address is absolute, later ones deltas from the
 * previous record, as the peer's writer does. Raw messages for hostile inputs too.
 */
public final class SymbfileWriter implements Closeable {
  private final OutputStream out;
  private long va;
  private boolean anyRecord;
  private Map<String, Integer> table;
  private long messages;

  /** Writes the magic and a Header. */
  public SymbfileWriter(OutputStream out) throws IOException {
    this(out, true);
  }

  /** Writes the magic, and a Header when {@code header}. */
  public SymbfileWriter(OutputStream out, boolean header) throws IOException {
    this.out = out;
    out.write(SymbfileReader.MAGIC);
    if (header) {
      message(SymbfileReader.MT_HEADER, new byte[0]);
    }
  }

  public long messageCount() {
    return messages;
  }

  /** One framed message: ULEB128 length, ULEB128 type, body. */
  public void message(long type, byte[] body) throws IOException {
    out.write(uleb(body.length));
    out.write(uleb(type));
    out.write(body);
    messages++;
  }

  public void message(long type, MessageLite body) throws IOException {
    message(type, body.toByteArray());
  }

  /** Writes a StringTableV1 and refers to it from here on (a string listed twice: its first index). */
  public void stringTable(List<String> strings) throws IOException {
    message(
        SymbfileReader.MT_STRING_TABLE_V1,
        StringTableV1.newBuilder().addAllStrings(strings).build());
    table = new HashMap<>();
    for (int i = 0; i < strings.size(); i++) {
      table.putIfAbsent(strings.get(i), i);
    }
  }

  /**
   * A RangeV1; {@code lineOffsets} from the range start, ascending (written as the deltas the
   * format wants); a null string is left out; {@code callFile} null leaves it to the parent's.
   */
  public void range(
      long start,
      long length,
      String function,
      String file,
      int callLine,
      String callFile,
      int depth,
      long[] lineOffsets,
      int[] lines)
      throws IOException {
    RangeV1.Builder b = RangeV1.newBuilder();
    if (anyRecord && deltaFits(start)) {
      b.setDeltaElfVA(start - va);
    } else {
      b.setSetElfVA(start);
    }
    b.setLength(length);
    if (function != null) {
      Integer ref = ref(function);
      if (ref != null) {
        b.setFuncRef(ref);
      } else {
        b.setFuncStr(function);
      }
    }
    if (file != null) {
      Integer ref = ref(file);
      if (ref != null) {
        b.setFileRef(ref);
      } else {
        b.setFileStr(file);
      }
    }
    if (callLine != 0) {
      b.setCallLine(callLine);
    }
    if (callFile != null) {
      Integer ref = ref(callFile);
      if (ref != null) {
        b.setCallFileRef(ref);
      } else {
        b.setCallFileStr(callFile);
      }
    }
    if (depth != 0) {
      b.setDepth(depth);
    }
    if (lines.length > 0) {
      LineTable.Builder t = LineTable.newBuilder();
      long prev = 0;
      for (int i = 0; i < lines.length; i++) {
        long d = lineOffsets[i] - prev;
        if (d < 0 || d > 0xFFFFFFFFL) {
          throw new IllegalArgumentException("line offsets must ascend by less than 2^32");
        }
        t.addOffset((int) d);
        t.addLineNumber(lines[i]);
        prev = lineOffsets[i];
      }
      b.setLineTable(t);
    }
    message(SymbfileReader.MT_RANGE_V1, b.build());
    va = start;
    anyRecord = true;
  }

  /** A ReturnPadV1; every string must be in the current string table. */
  public void returnPad(long address, String[] functions, String[] files, int[] lines)
      throws IOException {
    ReturnPadV1.Builder b = ReturnPadV1.newBuilder();
    if (anyRecord && deltaFits(address)) {
      b.setDeltaElfVA(address - va);
    } else {
      b.setSetElfVA(address);
    }
    for (int i = 0; i < functions.length; i++) {
      b.addFunc(requireRef(functions[i]));
      b.addFile(requireRef(files[i]));
      b.addLine(lines[i]);
    }
    message(SymbfileReader.MT_RETURN_PAD_V1, b.build());
    va = address;
    anyRecord = true;
  }

  /** Whether a signed delta reaches {@code to} from the last address without wrapping around. */
  private boolean deltaFits(long to) {
    long d = to - va;
    return Long.compareUnsigned(to, va) >= 0 ? d >= 0 : d < 0;
  }

  private Integer ref(String s) {
    return table == null ? null : table.get(s);
  }

  private int requireRef(String s) {
    Integer r = ref(s);
    if (r == null) {
      throw new IllegalArgumentException("'" + s + "' is not in the string table");
    }
    return r;
  }

  @Override
  public void close() throws IOException {
    out.close();
  }

  /** ULEB128 of an unsigned 64-bit value. */
  public static byte[] uleb(long v) {
    ByteArrayOutputStream b = new ByteArrayOutputStream(10);
    do {
      int x = (int) (v & 0x7F);
      v >>>= 7;
      b.write(v != 0 ? x | 0x80 : x);
    } while (v != 0);
    return b.toByteArray();
  }
}
