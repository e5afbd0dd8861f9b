package io.symbolicate.symbols.pdb;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Writes MSF 7.0 files for tests (hostile inputs, fuzz seeds): streams laid out page by page
 * (skipping the free-page-map pages), the stream directory after them and its page map last.
 * {@link #build(Consumer)} lets a test edit the directory's words (count, sizes, page numbers)
 * before they are written, to make the lies a hostile file tells.
 */
final class MsfBuilder {
  private final int blockSize;
  private final List<byte[]> streams = new ArrayList<>(); // null: a nil stream

  MsfBuilder(int blockSize) {
    this.blockSize = blockSize;
  }

  /** Adds a stream (null: nil); returns its index. */
  int add(byte[] stream) {
    streams.add(stream);
    return streams.size() - 1;
  }

  void set(int index, byte[] stream) {
    while (streams.size() <= index) {
      streams.add(new byte[0]);
    }
    streams.set(index, stream);
  }

  byte[] build() {
    return build(words -> {});
  }

  /** The file, {@code editDirectory} given the directory's words before they are written. */
  byte[] build(Consumer<int[]> editDirectory) {
    List<byte[]> pages = new ArrayList<>();
    pages.add(new byte[blockSize]); // superblock, written last
    List<Integer> dir = new ArrayList<>();
    dir.add(streams.size());
    for (byte[] s : streams) {
      dir.add(s == null ? -1 : s.length);
    }
    for (byte[] s : streams) {
      if (s == null) {
        continue;
      }
      for (int at = 0; at < s.length; at += blockSize) {
        byte[] p = new byte[blockSize];
        System.arraycopy(s, at, p, 0, Math.min(blockSize, s.length - at));
        dir.add(place(pages, p));
      }
    }
    int[] words = dir.stream().mapToInt(Integer::intValue).toArray();
    editDirectory.accept(words);
    ByteBuffer d = ByteBuffer.allocate(4 * words.length).order(ByteOrder.LITTLE_ENDIAN);
    for (int w : words) {
      d.putInt(w);
    }
    byte[] dirBytes = d.array();
    List<Integer> dirPages = new ArrayList<>();
    for (int at = 0; at < dirBytes.length; at += blockSize) {
      byte[] p = new byte[blockSize];
      System.arraycopy(dirBytes, at, p, 0, Math.min(blockSize, dirBytes.length - at));
      dirPages.add(place(pages, p));
    }
    ByteBuffer map = ByteBuffer.allocate(blockSize).order(ByteOrder.LITTLE_ENDIAN);
    for (int p : dirPages) {
      map.putInt(p);
    }
    int mapPage = place(pages, map.array());
    ByteBuffer sb = ByteBuffer.wrap(pages.get(0)).order(ByteOrder.LITTLE_ENDIAN);
    sb.put(MsfFile.MAGIC);
    sb.putInt(32, blockSize);
    sb.putInt(36, 1); // free page map
    sb.putInt(40, pages.size());
    sb.putInt(44, dirBytes.length);
    sb.putInt(52, mapPage);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : pages) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  /** Appends a page after the free-page-map pages of its interval; returns its number. */
  private int place(List<byte[]> pages, byte[] page) {
    while (pages.size() % blockSize == 1 || pages.size() % blockSize == 2) {
      pages.add(new byte[blockSize]);
    }
    pages.add(page);
    return pages.size() - 1;
  }

  /** Little-endian bytes, written field by field. */
  static final class Bytes {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Bytes u8(int v) {
      out.write(v);
      return this;
    }

    Bytes u16(int v) {
      out.write(v);
      out.write(v >>> 8);
      return this;
    }

    Bytes u32(long v) {
      u16((int) v);
      return u16((int) (v >>> 16));
    }

    Bytes bytes(byte[] b) {
      out.writeBytes(b);
      return this;
    }

    Bytes cstring(String s) {
      out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
      out.write(0);
      return this;
    }

    Bytes align(int n) {
      while (out.size() % n != 0) {
        out.write(0);
      }
      return this;
    }

    int size() {
      return out.size();
    }

    byte[] array() {
      return out.toByteArray();
    }
  }
}
