package io.symbolicate.symbols.minidump;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Writes small synthetic minidumps for tests (Linux amd64 unless told otherwise). */
public final class DumpBuilder {
  private static final int MAX_DIR = 32;
  private byte[] buf = new byte[1 << 16];
  private int size = 32 + 12 * MAX_DIR;
  private final List<long[]> dir = new ArrayList<>();

  /** Appends bytes 8-aligned and returns their offset. */
  public int blob(byte[] b) {
    size = (size + 7) & ~7;
    if (size + b.length > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + b.length + 1024));
    }
    System.arraycopy(b, 0, buf, size, b.length);
    int at = size;
    size += b.length;
    return at;
  }

  public DumpBuilder stream(long type, byte[] data) {
    int at = blob(data);
    dir.add(new long[] {type, data.length, at});
    return this;
  }

  /** A directory entry as given (sizes and offsets not checked). */
  public DumpBuilder rawEntry(long type, long dataSize, long rva) {
    dir.add(new long[] {type, dataSize, rva});
    return this;
  }

  public int string(String s) {
    byte[] u = s.getBytes(StandardCharsets.UTF_16LE);
    return blob(le(4 + u.length).putInt(u.length).put(u).array());
  }

  public byte[] build() {
    ByteBuffer h = ByteBuffer.wrap(buf).order(ByteOrder.LITTLE_ENDIAN);
    h.putInt(0, 0x504d444d).putInt(4, 0xa793).putInt(8, dir.size()).putInt(12, 32);
    for (int i = 0; i < dir.size(); i++) {
      h.putInt(32 + 12 * i, (int) dir.get(i)[0])
          .putInt(36 + 12 * i, (int) dir.get(i)[1])
          .putInt(40 + 12 * i, (int) dir.get(i)[2]);
    }
    return Arrays.copyOf(buf, size);
  }

  public static ByteBuffer le(int n) {
    return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
  }

  // ---- amd64 Linux pieces ----

  public static byte[] systemInfoLinuxAmd64() {
    ByteBuffer b = le(56);
    b.putShort(0, (short) 9).put(6, (byte) 1).putInt(20, 0x8201);
    return b.array();
  }

  public int amd64Context(long rip, long rsp, long rbp) {
    ByteBuffer c = le(1232);
    c.putInt(48, 0x0010003f).putLong(248, rip).putLong(152, rsp).putLong(160, rbp);
    return blob(c.array());
  }

  /** One MDRawThread (48 bytes) for a thread list. */
  public static void thread(
      ByteBuffer list,
      int at,
      long id,
      long stackBase,
      int stackSize,
      int stackRva,
      int contextRva) {
    list.putInt(at, (int) id)
        .putLong(at + 24, stackBase)
        .putInt(at + 32, stackSize)
        .putInt(at + 36, stackRva)
        .putInt(at + 40, 1232)
        .putInt(at + 44, contextRva);
  }

  /** A module list of one module with an ELF build id. */
  public byte[] moduleList(long base, int size, String name, byte[] buildId) {
    return moduleList(
        new long[] {base}, new int[] {size}, new String[] {name}, new byte[][] {buildId});
  }

  /** A module list: module i at bases[i], sizes[i] bytes, with an ELF build id. */
  public byte[] moduleList(long[] bases, int[] sizes, String[] names, byte[][] buildIds) {
    ByteBuffer m = le(4 + 108 * bases.length);
    m.putInt(0, bases.length);
    for (int i = 0; i < bases.length; i++) {
      int nameRva = string(names[i]);
      ByteBuffer cv = le(4 + buildIds[i].length).putInt(0x4270454c).put(buildIds[i]);
      int cvRva = blob(cv.array());
      int at = 4 + 108 * i;
      m.putLong(at, bases[i])
          .putInt(at + 8, sizes[i])
          .putInt(at + 20, nameRva)
          .putInt(at + 76, cv.capacity())
          .putInt(at + 80, cvRva);
    }
    return m.array();
  }

  public byte[] exception(long threadId, int code, int contextRva) {
    ByteBuffer e = le(168);
    e.putInt(0, (int) threadId)
        .putInt(8, code)
        .putInt(12, 1)
        .putInt(160, 1232)
        .putInt(164, contextRva);
    return e.array();
  }
}
