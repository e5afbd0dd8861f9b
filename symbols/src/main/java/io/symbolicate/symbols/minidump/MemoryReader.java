package io.symbolicate.symbols.minidump;

/**
 * Reads words of one memory range of the crashed process through a small window of the file, so
 * that walking a large stack never loads it whole. Reads outside the range answer "unavailable"
 * ({@link #has}) like Breakpad's MemoryRegion; an I/O failure reads as unavailable too.
 */
public final class MemoryReader {
  /** Bytes fetched per window. */
  public static final int WINDOW_BYTES = 64 * 1024;

  private final DumpSource src;
  private final MemoryRange range;
  private byte[] window;
  private long windowStart = -1; // offset into the range

  MemoryReader(DumpSource src, MemoryRange range) {
    this.src = src;
    this.range = range;
  }

  /** An in-memory region (tests, synthetic stacks). */
  public static MemoryReader of(long base, byte[] bytes) {
    return new MemoryReader(DumpSource.of(bytes), new MemoryRange(base, bytes.length, 0));
  }

  public MemoryRange range() {
    return range;
  }

  public long base() {
    return range.base();
  }

  public long size() {
    return range.size();
  }

  /** True when [address, address + bytes) lies inside the range. */
  public boolean has(long address, int bytes) {
    long off = address - range.base();
    return Long.compareUnsigned(address, range.base()) >= 0
        && Long.compareUnsigned(off, range.size()) < 0
        && Long.compareUnsigned(range.size() - off, bytes) >= 0;
  }

  /** The little-endian word of {@code bytes} (1, 4 or 8) at {@code address}; check {@link #has} first. */
  public long word(long address, int bytes) {
    long off = address - range.base();
    if (window == null || off < windowStart || off + bytes > windowStart + window.length) {
      long start = Math.max(0, Math.min(off - WINDOW_BYTES / 2, range.size() - WINDOW_BYTES));
      start &= ~7L;
      int len = (int) Math.min(WINDOW_BYTES, range.size() - start);
      if (off + bytes > start + len) {
        start = off;
        len = (int) Math.min(WINDOW_BYTES, range.size() - start);
      }
      try {
        window = src.read(range.rva() + start, len, "memory");
      } catch (MinidumpException e) {
        throw new IllegalStateException("memory checked at open became unreadable", e);
      }
      windowStart = start;
    }
    int at = (int) (off - windowStart);
    return bytes == 8
        ? LittleEndian.u64(window, at)
        : bytes == 4 ? LittleEndian.u32(window, at) : LittleEndian.u8(window, at);
  }

  /** A copy of [address, address + len), or null when it is not all inside the range. */
  public byte[] bytes(long address, int len) {
    if (len < 0 || len > WINDOW_BYTES || !has(address, len)) {
      return null;
    }
    try {
      return src.read(range.rva() + (address - range.base()), len, "memory");
    } catch (MinidumpException e) {
      return null;
    }
  }

  /** The word at {@code address}, or {@code missing} when it lies outside the range. */
  public long wordOr(long address, int bytes, long missing) {
    return has(address, bytes) ? word(address, bytes) : missing;
  }
}
