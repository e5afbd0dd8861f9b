package io.symbolicate.symbols.js;

import io.symbolicate.symbols.table.TablePage;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link JsTable} in one local file (what {@code js convert} writes): magic "SYMJSTB1", header
 * length + bytes, page count, then per page its 8-byte key, length and bytes. The pipeline
 * stores header and pages as separate records instead.
 */
public final class JsTableFile {
  private static final long MAGIC = 0x53594D4A53544231L; // "SYMJSTB1"
  private static final int MAX_PART = 256 << 20;

  private JsTableFile() {}

  public static void write(JsTable t, Path out) throws IOException {
    try (DataOutputStream o =
        new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(out), 1 << 16))) {
      o.writeLong(MAGIC);
      o.writeInt(t.header().length);
      o.write(t.header());
      o.writeInt(t.pages().size());
      for (TablePage p : t.pages()) {
        o.writeLong(p.firstKey());
        o.writeInt(p.bytes().length);
        o.write(p.bytes());
      }
    }
  }

  /** True when the file starts with this format's magic (so the CLI accepts maps or tables). */
  public static boolean isTableFile(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] b = in.readNBytes(8);
      return b.length == 8 && ByteBuffer.wrap(b).getLong() == MAGIC;
    }
  }

  public static JsTable read(Path file) throws IOException {
    try (DataInputStream in =
        new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
      if (in.readLong() != MAGIC) {
        throw new IOException(file + " is not a js table file");
      }
      byte[] header = in.readNBytes(checkLen(in.readInt()));
      int n = in.readInt();
      if (n < 0) {
        throw new IOException("corrupt js table file: page count");
      }
      List<TablePage> pages = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        long key = in.readLong();
        byte[] b = in.readNBytes(checkLen(in.readInt()));
        pages.add(new TablePage(key, b));
      }
      return new JsTable(header, pages);
    } catch (EOFException e) {
      throw new IOException("truncated js table file " + file, e);
    }
  }

  private static int checkLen(int n) throws IOException {
    if (n < 0 || n > MAX_PART) {
      throw new IOException("corrupt js table file: part length " + n);
    }
    return n;
  }
}
