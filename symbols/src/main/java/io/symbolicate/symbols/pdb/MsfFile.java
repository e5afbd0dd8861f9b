package io.symbolicate.symbols.pdb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The multi-stream file (MSF 7.0) a PDB is: a superblock, pages of {@code blockSize} bytes, the
 * free-page maps at pages 1 and 2 of every interval of {@code blockSize} pages, and a stream
 * directory listing each stream's size and pages. Streams are read through their page lists, page
 * by page, from a memory mapping of the file (in windows of {@link #WINDOW} bytes, so a file over
 * 2 GB works); nothing reads the whole file. Every page number, size and count the file states is
 * checked before it is used, and no array is sized from a count until the bytes that hold it are
 * known to exist.
 */
public final class MsfFile {
  static final byte[] MAGIC =
      "Microsoft C/C++ MSF 7.00\r\n\u001aDS\0\0\0".getBytes(StandardCharsets.ISO_8859_1);

  /** The mapping window; a multiple of every page size, so no page straddles two windows. */
  static final long WINDOW = 1L << 30;

  private final ByteBuffer[] windows;
  private final long fileSize;
  private final int blockSize;
  private final long blockCount; // pages that exist both in the superblock and in the file
  private final long[] streamSizes; // -1: a nil stream
  private final int[][] streamPages;
  private final boolean[] pagesChecked; // the page list was found to name no page twice

  public static MsfFile open(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = ch.size();
      List<ByteBuffer> w = new ArrayList<>();
      for (long at = 0; at < size; at += WINDOW) {
        w.add(ch.map(FileChannel.MapMode.READ_ONLY, at, Math.min(WINDOW, size - at)));
      }
      return new MsfFile(w.toArray(ByteBuffer[]::new), size);
    }
  }

  public static MsfFile parse(byte[] data) {
    return new MsfFile(new ByteBuffer[] {ByteBuffer.wrap(data)}, data.length);
  }

  /** An MSF file held in one buffer (a mapping of a file under 2 GB). */
  public static MsfFile of(ByteBuffer data) {
    ByteBuffer b = data.slice();
    return new MsfFile(new ByteBuffer[] {b}, b.remaining());
  }

  /** Whether a file starts with the MSF 7.00 signature. */
  public static boolean isMsf(byte[] head) {
    return head.length >= MAGIC.length && Arrays.equals(Arrays.copyOf(head, MAGIC.length), MAGIC);
  }

  private MsfFile(ByteBuffer[] windows, long fileSize) {
    this.windows = windows;
    this.fileSize = fileSize;
    if (fileSize < 56) {
      throw new PdbFormatException("not a PDB: " + fileSize + " bytes");
    }
    ByteBuffer sb = raw(0, 56);
    byte[] head = new byte[MAGIC.length];
    sb.get(0, head);
    if (!Arrays.equals(head, MAGIC)) {
      throw new PdbFormatException("not a PDB 7.0 (MSF 7.00) file: wrong signature");
    }
    blockSize = sb.getInt(32);
    if (blockSize < 512 || blockSize > 65536 || Integer.bitCount(blockSize) != 1) {
      throw new PdbFormatException(
          "MSF page size " + blockSize + " is not a power of 2 in 512..64K");
    }
    long claimedBlocks = sb.getInt(40) & 0xffffffffL;
    blockCount = Math.min(claimedBlocks, fileSize / blockSize);
    long directoryBytes = sb.getInt(44) & 0xffffffffL;
    long blockMapPage = sb.getInt(52) & 0xffffffffL;
    if (directoryBytes < 4) {
      throw new PdbFormatException("MSF stream directory of " + directoryBytes + " bytes");
    }
    long directoryPages = pages(directoryBytes);
    if (directoryPages > blockCount) {
      throw new PdbFormatException(
          "MSF stream directory of "
              + directoryBytes
              + " bytes needs "
              + directoryPages
              + " pages, more than the file's "
              + blockCount);
    }
    checkPage(blockMapPage, "the stream directory's page map");
    long mapAt = blockMapPage * blockSize;
    if (directoryPages * 4 > fileSize - mapAt) {
      throw new PdbFormatException("the stream directory's page map runs past the end of the file");
    }
    int[] dirPages = new int[(int) directoryPages];
    ByteBuffer map = raw(mapAt, (int) directoryPages * 4);
    for (int i = 0; i < dirPages.length; i++) {
      dirPages[i] = checkPage(map.getInt(4 * i) & 0xffffffffL, "stream directory page " + i);
    }
    unique(dirPages, "the stream directory");
    ByteBuffer dir = read(dirPages, 0, (int) directoryBytes);
    long streamCount = dir.getInt(0) & 0xffffffffL;
    if (streamCount > (directoryBytes - 4) / 4) {
      throw new PdbFormatException(
          "MSF stream directory claims "
              + streamCount
              + " streams, more than its "
              + directoryBytes
              + " bytes hold");
    }
    int n = (int) streamCount;
    streamSizes = new long[n];
    long pageWords = 0;
    for (int i = 0; i < n; i++) {
      long size = dir.getInt(4 + 4 * i) & 0xffffffffL;
      streamSizes[i] = size == 0xffffffffL ? -1 : size;
      pageWords += size == 0xffffffffL ? 0 : pages(size);
    }
    long listAt = 4 + 4L * n;
    if (pageWords > (directoryBytes - listAt) / 4) {
      throw new PdbFormatException(
          "MSF streams claim "
              + pageWords
              + " pages, more than the stream directory lists ("
              + (directoryBytes - listAt) / 4
              + ")");
    }
    streamPages = new int[n][];
    pagesChecked = new boolean[n];
    int at = (int) listAt;
    for (int i = 0; i < n; i++) {
      int count = streamSizes[i] < 0 ? 0 : (int) pages(streamSizes[i]);
      int[] p = new int[count];
      for (int j = 0; j < count; j++) {
        p[j] = checkPage(dir.getInt(at) & 0xffffffffL, "page " + j + " of stream " + i);
        at += 4;
      }
      streamPages[i] = p;
    }
  }

  private long pages(long bytes) {
    return (bytes + blockSize - 1) / blockSize;
  }

  /** A page number that exists, and is no free-page-map page (pages 1 and 2 of each interval). */
  private int checkPage(long page, String what) {
    if (page >= blockCount) {
      throw new PdbFormatException(
          what + " is page " + page + ", past the file's " + blockCount + " pages");
    }
    long inInterval = page % blockSize;
    if (page == 0 || inInterval == 1 || inInterval == 2) {
      throw new PdbFormatException(
          what + " is page " + page + ", which holds the superblock or a free page map");
    }
    return (int) page;
  }

  /** Refuses a page list that names a page twice (a loop, or two parts of a stream overlapping). */
  private void unique(int[] pages, String what) {
    if (pages.length < 2) {
      return;
    }
    int[] sorted = pages.clone();
    Arrays.sort(sorted);
    for (int i = 1; i < sorted.length; i++) {
      if (sorted[i] == sorted[i - 1]) {
        throw new PdbFormatException(what + " lists page " + sorted[i] + " twice");
      }
    }
  }

  private ByteBuffer raw(long offset, int length) {
    int w = (int) (offset / WINDOW);
    int in = (int) (offset % WINDOW);
    return windows[w].slice(in, length).order(ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * {@code length} bytes from {@code offset} of the stream made of {@code pages}: a view of the
   * mapping when those pages follow each other in the file (as linkers mostly write them), else a
   * copy gathered page by page.
   */
  private ByteBuffer read(int[] pages, long offset, int length) {
    if (length > 0) {
      int first = (int) (offset / blockSize);
      int last = (int) ((offset + length - 1) / blockSize);
      boolean contiguous = true;
      for (int p = first; p < last && contiguous; p++) {
        contiguous = pages[p + 1] == pages[p] + 1;
      }
      long start = (long) pages[first] * blockSize + offset % blockSize;
      if (contiguous && start / WINDOW == (start + length - 1) / WINDOW) {
        return raw(start, length);
      }
    }
    byte[] out = new byte[length];
    int done = 0;
    while (done < length) {
      long pos = offset + done;
      int page = pages[(int) (pos / blockSize)];
      int in = (int) (pos % blockSize);
      int n = Math.min(blockSize - in, length - done);
      raw((long) page * blockSize + in, n).get(out, done, n);
      done += n;
    }
    return ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
  }

  public int blockSize() {
    return blockSize;
  }

  public int streamCount() {
    return streamSizes.length;
  }

  /** Whether stream {@code index} exists and is not nil. */
  public boolean hasStream(int index) {
    return index >= 0 && index < streamSizes.length && streamSizes[index] >= 0;
  }

  /** The size of a stream (0 for a nil or missing one). */
  public long streamSize(int index) {
    return hasStream(index) ? streamSizes[index] : 0;
  }

  /**
   * {@code length} bytes at {@code offset} of stream {@code index}, read through its page list;
   * fails when they are not all in the stream, or the stream lists a page twice.
   */
  public ByteBuffer read(int index, long offset, long length, String what) {
    if (!hasStream(index)) {
      throw new PdbFormatException(what + ": stream " + index + " does not exist");
    }
    long size = streamSizes[index];
    if (offset < 0 || length < 0 || offset > size || length > size - offset) {
      throw new PdbFormatException(
          what
              + ": "
              + length
              + " bytes at "
              + offset
              + " lie outside stream "
              + index
              + " ("
              + size
              + " bytes)");
    }
    if (length > Integer.MAX_VALUE - 16) {
      throw new PdbFormatException(what + ": " + length + " bytes is more than 2 GB");
    }
    if (!pagesChecked[index]) {
      unique(streamPages[index], "stream " + index);
      pagesChecked[index] = true;
    }
    return read(streamPages[index], offset, (int) length);
  }

  /** A whole stream. */
  public ByteBuffer stream(int index, String what) {
    return read(index, 0, streamSize(index), what);
  }
}
