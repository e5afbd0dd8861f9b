package io.symbolicate.symbols.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * A Microsoft cabinet file ({@code MSCF}), as a symbol store holds a compressed PDB or
 * executable ({@code name.pd_}, {@code name.dl_}, written by {@code makecab} or {@code symstore
 * /compress}): the header, its folders and files, and the data blocks of a folder, stored or
 * MSZIP-compressed. MSZIP blocks are each {@code CK} and a deflate stream whose window starts
 * with the previous block's 32 KiB of output, so each inflates with the previous block as its
 * dictionary. LZX folders are one bit stream across their blocks, decoded by {@link LzxDecoder}
 * in 32 KiB frames; Quantum folders are refused by name. Every count and offset is checked
 * against the file before it is used, nothing is allocated from a claimed size (a block is at
 * most 64 KiB in, 32 KiB out), and a file larger than the caller allows is refused before any
 * block is read. Block checksums are not verified (the deflate stream's own structure catches
 * corruption; {@code expand.exe} does not verify them either). One cabinet only: a set spanning
 * several cabinets is refused.
 */
public final class CabFile {
  /** How a folder's blocks are compressed ({@code typeCompress & 0xf}). */
  public enum Compression {
    NONE,
    MSZIP,
    QUANTUM,
    LZX
  }

  /** One file in the cabinet: where its bytes lie in its folder's uncompressed stream. */
  public record Entry(String name, long size, int folder, long offset) {}

  /**
   * A folder: its first data block's offset, block count and compression ({@code windowBits}: an
   * LZX folder's window, 2^15 to 2^21 bytes; 0 for the others).
   */
  public record Folder(long dataOffset, int blocks, Compression compression, int windowBits) {}

  private static final int HEADER_BYTES = 36;
  private static final int FLAG_PREV = 0x1;
  private static final int FLAG_NEXT = 0x2;
  private static final int FLAG_RESERVE = 0x4;

  /** MSZIP blocks inflate to at most this much (the deflate window). */
  static final int MSZIP_BLOCK = 32768;

  private final ByteBuffer buf;
  private final List<Folder> folders;
  private final List<Entry> files;
  private final int dataReserve;

  private CabFile(ByteBuffer buf, List<Folder> folders, List<Entry> files, int dataReserve) {
    this.buf = buf;
    this.folders = folders;
    this.files = files;
    this.dataReserve = dataReserve;
  }

  /** Whether a file starts as a cabinet. */
  public static boolean isCab(byte[] head) {
    return head.length >= 4 && head[0] == 'M' && head[1] == 'S' && head[2] == 'C' && head[3] == 'F';
  }

  public List<Folder> folders() {
    return folders;
  }

  public List<Entry> files() {
    return files;
  }

  /** Reads the header, folders and file entries of a whole cabinet. */
  public static CabFile parse(ByteBuffer whole) {
    ByteBuffer b = whole.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    b.position(0);
    long size = b.remaining();
    if (size < HEADER_BYTES) {
      throw new CabFormatException("too short for a cabinet header (" + size + " bytes)");
    }
    if (b.getInt(0) != 0x4643534d) {
      throw new CabFormatException("not a cabinet (no MSCF signature)");
    }
    long cbCabinet = Integer.toUnsignedLong(b.getInt(8));
    if (cbCabinet > size) {
      throw new CabFormatException(
          "the header claims " + cbCabinet + " bytes, the file has " + size);
    }
    long coffFiles = Integer.toUnsignedLong(b.getInt(16));
    int major = b.get(25) & 0xff;
    if (major != 1) {
      throw new CabFormatException("cabinet format version " + major + " (only 1.x is read)");
    }
    int cFolders = b.getShort(26) & 0xffff;
    int cFiles = b.getShort(28) & 0xffff;
    int flags = b.getShort(30) & 0xffff;
    if ((flags & (FLAG_PREV | FLAG_NEXT)) != 0) {
      throw new CabFormatException("a cabinet of a multi-cabinet set: not read");
    }
    int pos = HEADER_BYTES;
    int folderReserve = 0;
    int dataReserve = 0;
    if ((flags & FLAG_RESERVE) != 0) {
      need(size, pos, 4, "the reserve sizes");
      int headerReserve = b.getShort(pos) & 0xffff;
      folderReserve = b.get(pos + 2) & 0xff;
      dataReserve = b.get(pos + 3) & 0xff;
      pos += 4;
      need(size, pos, headerReserve, "the header's reserved bytes");
      pos += headerReserve;
    }
    if (cFolders == 0) {
      throw new CabFormatException("the cabinet has no folder");
    }
    List<Folder> folders = new ArrayList<>(Math.min(cFolders, 64));
    for (int i = 0; i < cFolders; i++) {
      need(size, pos, 8L + folderReserve, "folder " + i);
      long start = Integer.toUnsignedLong(b.getInt(pos));
      int blocks = b.getShort(pos + 4) & 0xffff;
      int typeCompress = b.getShort(pos + 6) & 0xffff;
      int type = typeCompress & 0x000f;
      if (start > size) {
        throw new CabFormatException(
            "folder " + i + "'s data starts at " + start + ", past the end (" + size + ")");
      }
      Compression c =
          switch (type) {
            case 0 -> Compression.NONE;
            case 1 -> Compression.MSZIP;
            case 2 -> Compression.QUANTUM;
            case 3 -> Compression.LZX;
            default ->
                throw new CabFormatException("folder " + i + ": unknown compression type " + type);
          };
      int windowBits = 0;
      if (c == Compression.LZX) {
        windowBits = (typeCompress >>> 8) & 0x1f;
        LzxDecoder.positionSlots(windowBits); // refuses a window LZX has not
      }
      folders.add(new Folder(start, blocks, c, windowBits));
      pos += 8 + folderReserve;
    }
    if (coffFiles >= size) {
      throw new CabFormatException(
          "the file entries start at " + coffFiles + ", past the end (" + size + ")");
    }
    List<Entry> files = new ArrayList<>(Math.min(cFiles, 64));
    long at = coffFiles;
    for (int i = 0; i < cFiles; i++) {
      need(size, at, 16, "file entry " + i);
      int p = (int) at;
      long cbFile = Integer.toUnsignedLong(b.getInt(p));
      long offset = Integer.toUnsignedLong(b.getInt(p + 4));
      int iFolder = b.getShort(p + 8) & 0xffff;
      if (iFolder >= cFolders) {
        throw new CabFormatException(
            "file entry "
                + i
                + " is in folder "
                + iFolder
                + (iFolder >= 0xfffd ? " (continued across cabinets: not read)" : "")
                + ", the cabinet has "
                + cFolders);
      }
      int end = p + 16;
      while (end < size && b.get(end) != 0 && end - p - 16 < 256) {
        end++;
      }
      if (end >= size || b.get(end) != 0) {
        throw new CabFormatException("file entry " + i + "'s name runs past its end");
      }
      byte[] name = new byte[end - p - 16];
      b.get(p + 16, name);
      files.add(new Entry(new String(name, StandardCharsets.UTF_8), cbFile, iFolder, offset));
      at = end + 1L;
    }
    if (files.isEmpty()) {
      throw new CabFormatException("the cabinet holds no file");
    }
    return new CabFile(b, List.copyOf(folders), List.copyOf(files), dataReserve);
  }

  private static void need(long size, long at, long n, String what) {
    if (at + n > size) {
      throw new CabFormatException(what + " at " + at + " runs past the end (" + size + " bytes)");
    }
  }

  /**
   * Writes one file's bytes to {@code out}; refuses a file larger than {@code maxBytes} before
   * reading a block, a folder whose blocks end before the file does, and Quantum.
   */
  public long extract(Entry e, OutputStream out, long maxBytes) throws IOException {
    if (e.size() > maxBytes) {
      throw new CabFormatException(
          e.name() + " claims " + Sizes.of(e.size()) + ", over the limit of " + Sizes.of(maxBytes));
    }
    Folder f = folders.get(e.folder());
    if (f.compression() == Compression.QUANTUM) {
      throw new CabFormatException(
          e.name()
              + " is Quantum-compressed: only stored, MSZIP and LZX cabinets are read (expand it"
              + " first, e.g. with cabextract or expand.exe)");
    }
    if (f.compression() == Compression.LZX) {
      return extractLzx(e, f, out);
    }
    long size = buf.limit();
    long at = f.dataOffset();
    long folderPos = 0; // uncompressed bytes of the folder passed so far
    long end = e.offset() + e.size();
    long written = 0;
    byte[] in = new byte[0xffff];
    byte[] window = new byte[MSZIP_BLOCK];
    int windowLen = 0;
    byte[] block = new byte[MSZIP_BLOCK];
    Inflater inflater = f.compression() == Compression.MSZIP ? new Inflater(true) : null;
    try {
      for (int i = 0; i < f.blocks() && folderPos < end; i++) {
        need(size, at, 8L + dataReserve, "data block " + i);
        int p = (int) at;
        int cbData = buf.getShort(p + 4) & 0xffff;
        int cbUncomp = buf.getShort(p + 6) & 0xffff;
        at += 8 + dataReserve;
        need(size, at, cbData, "data block " + i + "'s " + cbData + " bytes");
        buf.get((int) at, in, 0, cbData);
        at += cbData;
        int n;
        if (inflater == null) {
          if (cbUncomp != cbData) {
            throw new CabFormatException(
                "stored data block " + i + " has " + cbData + " bytes, claims " + cbUncomp);
          }
          n = cbData;
          block = ensure(block, n);
          System.arraycopy(in, 0, block, 0, n);
        } else {
          if (cbUncomp > MSZIP_BLOCK) {
            throw new CabFormatException(
                "MSZIP block " + i + " claims " + cbUncomp + " bytes, more than 32 KiB");
          }
          if (cbData < 2 || in[0] != 'C' || in[1] != 'K') {
            throw new CabFormatException("MSZIP block " + i + " lacks its CK signature");
          }
          n = inflate(inflater, in, cbData, window, windowLen, block, cbUncomp, i);
          System.arraycopy(block, 0, window, 0, n);
          windowLen = n;
        }
        // the part of this block inside the file
        long from = Math.max(e.offset(), folderPos);
        long to = Math.min(end, folderPos + n);
        if (to > from) {
          out.write(block, (int) (from - folderPos), (int) (to - from));
          written += to - from;
        }
        folderPos += n;
      }
    } finally {
      if (inflater != null) {
        inflater.end();
      }
    }
    if (written != e.size()) {
      throw new CabFormatException(
          e.name()
              + " claims "
              + e.size()
              + " bytes, its folder's blocks hold "
              + written
              + " of them");
    }
    return written;
  }

  private long extractLzx(Entry e, Folder f, OutputStream out) throws IOException {
    long size = buf.limit();
    long total = 0;
    long at = f.dataOffset();
    for (int i = 0; i < f.blocks(); i++) {
      need(size, at, 8L + dataReserve, "data block " + i);
      int cbData = buf.getShort((int) at + 4) & 0xffff;
      int cbUncomp = buf.getShort((int) at + 6) & 0xffff;
      if (cbUncomp > LzxDecoder.FRAME) {
        throw new CabFormatException(
            "LZX block " + i + " claims " + cbUncomp + " bytes, more than a 32 KiB frame");
      }
      at += 8 + dataReserve;
      need(size, at, cbData, "data block " + i + "'s " + cbData + " bytes");
      at += cbData;
      total += cbUncomp;
    }
    long end = e.offset() + e.size();
    if (end > total) {
      throw new CabFormatException(
          e.name() + " ends at " + end + " in its folder, whose blocks hold " + total + " bytes");
    }
    LzxDecoder lzx = new LzxDecoder(new BlockInput(f), f.windowBits(), total);
    byte[] frame = new byte[LzxDecoder.FRAME];
    long folderPos = 0;
    long written = 0;
    while (folderPos < end) {
      int n = (int) Math.min(LzxDecoder.FRAME, total - folderPos);
      lzx.decodeFrame(frame, n);
      long from = Math.max(e.offset(), folderPos);
      long to = Math.min(end, folderPos + n);
      if (to > from) {
        out.write(frame, (int) (from - folderPos), (int) (to - from));
        written += to - from;
      }
      folderPos += n;
    }
    return written;
  }

  /** A folder's data blocks as one run of bytes (their headers checked by the caller). */
  private final class BlockInput implements LzxDecoder.Input {
    private final int blocks;
    private int block;
    private int at;
    private int blockEnd;

    BlockInput(Folder f) {
      this.blocks = f.blocks();
      this.at = (int) f.dataOffset();
      this.blockEnd = at;
    }

    @Override
    public int read() {
      while (at == blockEnd) {
        if (block == blocks) {
          return -1;
        }
        int cbData = buf.getShort(at + 4) & 0xffff;
        at += 8 + dataReserve;
        blockEnd = at + cbData;
        block++;
      }
      return buf.get(at++) & 0xff;
    }
  }

  private static byte[] ensure(byte[] b, int n) {
    return b.length >= n ? b : new byte[n];
  }

  private static int inflate(
      Inflater inf,
      byte[] in,
      int len,
      byte[] window,
      int windowLen,
      byte[] out,
      int expected,
      int block) {
    inf.reset();
    if (windowLen > 0) {
      inf.setDictionary(window, 0, windowLen);
    }
    inf.setInput(in, 2, len - 2);
    int n = 0;
    try {
      while (n < expected && !inf.finished()) {
        int r = inf.inflate(out, n, expected - n);
        if (r == 0 && (inf.needsInput() || inf.needsDictionary())) {
          break;
        }
        n += r;
      }
      if (!inf.finished()) {
        // a block that inflates to more than it claims, or stops short of its end
        byte[] probe = new byte[1];
        if (n == expected && inf.inflate(probe) > 0) {
          throw new CabFormatException(
              "MSZIP block " + block + " inflates to more than its " + expected + " bytes");
        }
        if (!inf.finished()) {
          throw new CabFormatException(
              "MSZIP block " + block + " ends after " + n + " of its " + expected + " bytes");
        }
      }
    } catch (DataFormatException e) {
      throw new CabFormatException("MSZIP block " + block + ": " + e.getMessage(), e);
    }
    if (n != expected) {
      throw new CabFormatException(
          "MSZIP block " + block + " inflates to " + n + " bytes, claims " + expected);
    }
    return n;
  }
}
