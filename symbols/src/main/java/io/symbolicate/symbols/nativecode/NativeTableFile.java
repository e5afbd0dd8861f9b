package io.symbolicate.symbols.nativecode;

import io.symbolicate.symbols.table.TablePage;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A converted table on disk (what {@code native convert} writes): magic, then each page as it
 * is cut (so conversion streams), then the header. Layout: "NSYMTBL1", records
 * {@code 'P' firstKey:i64 length:i32 bytes} ... {@code 'H' length:i32 bytes}.
 */
public final class NativeTableFile {
  static final byte[] MAGIC = "NSYMTBL1".getBytes(StandardCharsets.US_ASCII);
  private static final int MAX_RECORD = 512 << 20;

  private NativeTableFile() {}

  /** Whether the file starts with the table magic (else treat it as a .sym). */
  public static boolean isTableFile(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] head = in.readNBytes(MAGIC.length);
      return Arrays.equals(head, MAGIC);
    }
  }

  /** Converts {@code sym} to {@code out}, streaming pages to disk; returns header and size. */
  public static Written convert(Path sym, Path out, NativeSymbols.Options options)
      throws IOException {
    try (InputStream in = Files.newInputStream(sym);
        DataOutputStream o =
            new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(out), 1 << 16))) {
      o.write(MAGIC);
      long[] pageBytes = new long[1];
      NativeHeader header =
          NativeSymbols.convert(
              in,
              options,
              page -> {
                o.writeByte('P');
                o.writeLong(page.firstKey());
                o.writeInt(page.bytes().length);
                o.write(page.bytes());
                pageBytes[0] += page.bytes().length;
              });
      byte[] h = header.encode();
      o.writeByte('H');
      o.writeInt(h.length);
      o.write(h);
      return new Written(header, h.length + pageBytes[0]);
    }
  }

  /** What {@link #convert} wrote: the header and the table's encoded size (header + pages). */
  public record Written(NativeHeader header, long tableBytes) {}

  public static NativeTable read(Path file) throws IOException {
    try (DataInputStream in =
        new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
      byte[] magic = in.readNBytes(MAGIC.length);
      if (!Arrays.equals(magic, MAGIC)) {
        throw new IOException(file + " is not a native table file (bad magic)");
      }
      List<TablePage> pages = new ArrayList<>();
      while (true) {
        int type;
        try {
          type = in.readUnsignedByte();
        } catch (EOFException e) {
          throw new IOException(file + " is truncated: no header record");
        }
        if (type == 'P') {
          long key = in.readLong();
          pages.add(new TablePage(key, readRecord(in, file)));
        } else if (type == 'H') {
          NativeHeader header;
          try {
            header = NativeHeader.decode(readRecord(in, file));
          } catch (CorruptTableException e) {
            throw new IOException(file + ": " + e.getMessage(), e);
          }
          return new NativeTable(header, pages);
        } else {
          throw new IOException(file + " is corrupt: unknown record type " + type);
        }
      }
    } catch (EOFException e) {
      throw new IOException(file + " is truncated", e);
    }
  }

  private static byte[] readRecord(DataInputStream in, Path file) throws IOException {
    int len = in.readInt();
    if (len < 0 || len > MAX_RECORD) {
      throw new IOException(file + " is corrupt: record length " + len);
    }
    byte[] b = new byte[len];
    in.readFully(b);
    return b;
  }
}
