package io.symbolicate.symbols.jvm;

import io.symbolicate.symbols.table.TablePage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A compact table in one file (what {@code symbolicator jvm convert} writes): magic, header,
 * then each page as (firstKey, length, bytes). The store keeps header and pages apart; this
 * file is only for the command line and for shipping a converted mapping around.
 */
public final class JvmTableFile {
  static final byte[] MAGIC = "SYMJVMT1".getBytes(StandardCharsets.US_ASCII);

  private JvmTableFile() {}

  public static boolean looksLikeTable(byte[] data) {
    if (data.length < MAGIC.length) {
      return false;
    }
    for (int i = 0; i < MAGIC.length; i++) {
      if (data[i] != MAGIC[i]) {
        return false;
      }
    }
    return true;
  }

  public static void write(JvmTable t, OutputStream out) throws IOException {
    Bytes.Writer w = new Bytes.Writer();
    w.bytes(t.header());
    w.varint(t.pages().size());
    out.write(MAGIC);
    out.write(w.toByteArray());
    for (TablePage p : t.pages()) {
      Bytes.Writer pw = new Bytes.Writer();
      pw.i64(p.firstKey());
      pw.varint(p.bytes().length);
      out.write(pw.toByteArray());
      out.write(p.bytes());
    }
  }

  public static byte[] toBytes(JvmTable t) {
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try {
      write(t, bos);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return bos.toByteArray();
  }

  /** Reads a table file; throws {@link MappingException} when it is corrupt or truncated. */
  public static JvmTable read(byte[] data) {
    if (!looksLikeTable(data)) {
      throw new MappingException("not a converted JVM table (bad magic)");
    }
    Bytes.Reader r = new Bytes.Reader(Arrays.copyOfRange(data, MAGIC.length, data.length));
    int hl = r.count();
    byte[] header = r.raw(hl);
    JvmHeader h = JvmHeader.decode(header);
    int n = r.count();
    List<TablePage> pages = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      long key = r.i64();
      int len = r.count();
      pages.add(new TablePage(key, r.raw(len)));
    }
    if (!r.atEnd()) {
      throw new MappingException("corrupt table file: trailing bytes");
    }
    return new JvmTable(h, header, List.copyOf(pages));
  }
}
