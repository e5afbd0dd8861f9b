package io.symbolicate.symbols.pdb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A PDB 7.0: the PDB info stream (GUID, age, the named streams such as {@code /names}), the DBI
 * stream (age, machine, modules, the optional debug header and its section headers stream) over
 * an {@link MsfFile}. Symbols and lines are read by {@link PdbSymbols} and {@link PdbLines}.
 */
public final class PdbFile {
  static final int STREAM_INFO = 1;
  static final int STREAM_DBI = 3;

  static final int DBG_FPO = 0;
  static final int DBG_SECTION_HEADERS = 5;
  static final int DBG_NEW_FPO = 9;
  static final int DBG_ORIGINAL_SECTION_HEADERS = 10;

  /** The most modules read; a DBI claiming more is refused. */
  static final int MAX_MODULES = 1 << 20;

  private final MsfFile msf;
  private final byte[] guid;
  private final long infoAge;
  private final long dbiAge;
  private final int machine;
  private final int symbolRecordStream;
  private final List<PdbModule> modules = new ArrayList<>();
  private final int[] debugStreams = new int[11];
  private final Map<String, Integer> namedStreams = new HashMap<>();
  private long[] sectionAddresses; // lazily: RVA of each section, 1-based segments
  private long[] sectionSizes;
  private int[] sectionFlags;

  public static PdbFile open(Path file) throws IOException {
    return new PdbFile(MsfFile.open(file));
  }

  public static PdbFile parse(byte[] data) {
    return new PdbFile(MsfFile.parse(data));
  }

  public static PdbFile of(MsfFile msf) {
    return new PdbFile(msf);
  }

  PdbFile(MsfFile msf) {
    this.msf = msf;
    if (!msf.hasStream(STREAM_INFO)) {
      throw new PdbFormatException("the PDB has no info stream (stream 1)");
    }
    long infoSize = msf.streamSize(STREAM_INFO);
    if (infoSize < 28) {
      throw new PdbFormatException("the PDB info stream is " + infoSize + " bytes, less than 28");
    }
    ByteBuffer info = msf.read(STREAM_INFO, 0, Math.min(infoSize, 1 << 20), "PDB info stream");
    infoAge = info.getInt(8) & 0xffffffffL;
    guid = new byte[16];
    info.get(12, guid);
    swapGuidFields(guid);
    readNamedStreams(info);
    Arrays.fill(debugStreams, -1);
    if (msf.hasStream(STREAM_DBI) && msf.streamSize(STREAM_DBI) >= 64) {
      ByteBuffer dbi = msf.stream(STREAM_DBI, "DBI stream");
      if (dbi.getInt(0) != -1) {
        throw new PdbFormatException("the DBI stream has an old header (not version 7.0)");
      }
      dbiAge = dbi.getInt(8) & 0xffffffffL;
      symbolRecordStream = dbi.getShort(20) & 0xffff;
      machine = dbi.getShort(58) & 0xffff;
      readDbi(dbi);
    } else {
      dbiAge = infoAge;
      symbolRecordStream = -1;
      machine = 0;
    }
  }

  /** The named stream map after the GUID: a string buffer and a hash table of (name, stream). */
  private void readNamedStreams(ByteBuffer info) {
    try {
      int at = 28;
      int bufferSize = info.getInt(at);
      at += 4;
      if (bufferSize < 0 || bufferSize > info.limit() - at) {
        return;
      }
      int strings = at;
      at += bufferSize;
      int size = info.getInt(at);
      at += 8; // size, capacity
      int presentWords = info.getInt(at);
      at += 4;
      if (presentWords < 0 || presentWords > (info.limit() - at) / 4) {
        return;
      }
      int present = 0;
      for (int i = 0; i < presentWords; i++) {
        present += Integer.bitCount(info.getInt(at + 4 * i));
      }
      at += 4 * presentWords;
      int deletedWords = info.getInt(at);
      at += 4;
      if (deletedWords < 0 || deletedWords > (info.limit() - at) / 4) {
        return;
      }
      at += 4 * deletedWords;
      int entries = Math.min(present, size);
      for (int i = 0; i < entries && at + 8 <= info.limit(); i++) {
        int key = info.getInt(at);
        int value = info.getInt(at + 4);
        at += 8;
        if (key >= 0 && key < bufferSize) {
          namedStreams.put(cString(info, strings + key, strings + bufferSize), value);
        }
      }
    } catch (IndexOutOfBoundsException e) {
      // a damaged map only loses the named streams (file names), not the identity
      namedStreams.clear();
    }
  }

  private void readDbi(ByteBuffer dbi) {
    int modInfoSize = dbi.getInt(24);
    int contribSize = dbi.getInt(28);
    int sectionMapSize = dbi.getInt(32);
    int sourceInfoSize = dbi.getInt(36);
    int typeServerSize = dbi.getInt(40);
    int optionalSize = dbi.getInt(48);
    int ecSize = dbi.getInt(52);
    long end = 64;
    for (int s :
        new int[] {
          modInfoSize,
          contribSize,
          sectionMapSize,
          sourceInfoSize,
          typeServerSize,
          ecSize,
          optionalSize
        }) {
      if (s < 0) {
        throw new PdbFormatException("a DBI substream has a negative size " + s);
      }
      end += s;
    }
    if (end > dbi.limit()) {
      throw new PdbFormatException(
          "the DBI substreams claim " + end + " bytes, the stream has " + dbi.limit());
    }
    int at = 64;
    int modEnd = 64 + modInfoSize;
    while (at + 64 <= modEnd) {
      if (modules.size() >= MAX_MODULES) {
        throw new PdbFormatException("the DBI stream lists more than " + MAX_MODULES + " modules");
      }
      int stream = dbi.getShort(at + 34) & 0xffff;
      long symBytes = dbi.getInt(at + 36) & 0xffffffffL;
      long c11 = dbi.getInt(at + 40) & 0xffffffffL;
      long c13 = dbi.getInt(at + 44) & 0xffffffffL;
      int nameAt = at + 64;
      String name = cString(dbi, nameAt, modEnd);
      int objAt = cStringEnd(dbi, nameAt, modEnd) + 1;
      String obj = cString(dbi, objAt, modEnd);
      int next = cStringEnd(dbi, objAt, modEnd) + 1;
      modules.add(new PdbModule(name, obj, stream == 0xffff ? -1 : stream, symBytes, c11, c13));
      at = (next + 3) & ~3;
    }
    int optAt =
        64 + modInfoSize + contribSize + sectionMapSize + sourceInfoSize + typeServerSize + ecSize;
    for (int i = 0; i < debugStreams.length && 2 * i + 2 <= optionalSize; i++) {
      int s = dbi.getShort(optAt + 2 * i) & 0xffff;
      debugStreams[i] = s == 0xffff ? -1 : s;
    }
  }

  /** A NUL-terminated UTF-8 string at {@code at}, ending at {@code limit} at the latest. */
  static String cString(ByteBuffer b, int at, int limit) {
    int end = cStringEnd(b, at, limit);
    if (end <= at) {
      return "";
    }
    byte[] s = new byte[end - at];
    b.get(at, s);
    return new String(s, StandardCharsets.UTF_8);
  }

  /** Where the string at {@code at} ends: its NUL, or the limit (never before {@code at}). */
  static int cStringEnd(ByteBuffer b, int at, int limit) {
    int end = at;
    int max = Math.min(limit, b.limit());
    while (end < max && b.get(end) != 0) {
      end++;
    }
    return end;
  }

  private static void swapGuidFields(byte[] g) {
    reverse(g, 0, 4);
    reverse(g, 4, 2);
    reverse(g, 6, 2);
  }

  private static void reverse(byte[] b, int from, int n) {
    for (int i = 0, j = n - 1; i < j; i++, j--) {
      byte t = b[from + i];
      b[from + i] = b[from + j];
      b[from + j] = t;
    }
  }

  public MsfFile msf() {
    return msf;
  }

  /** The GUID, its first three fields in printed (big-endian) order. */
  public byte[] guid() {
    return guid.clone();
  }

  /**
   * The age that names the PDB: the DBI stream's, as Breakpad, Symbolicator and the symbol
   * server use it (the info stream's age grows with every incremental link; the DBI's matches the
   * image's CodeView record); the info stream's when there is no DBI stream.
   */
  public long age() {
    return dbiAge;
  }

  public long infoAge() {
    return infoAge;
  }

  /** {@code IMAGE_FILE_MACHINE_*} of the DBI header (0 when unknown). */
  public int machine() {
    return machine;
  }

  /** The architecture as Breakpad names it ({@code x86}, {@code x86_64}, {@code arm64}, ...). */
  public String arch() {
    return switch (machine) {
      case 0x14c -> "x86";
      case 0x8664 -> "x86_64";
      case 0xaa64 -> "arm64";
      case 0x1c0, 0x1c4 -> "arm";
      default -> "unknown";
    };
  }

  public List<PdbModule> modules() {
    return Collections.unmodifiableList(modules);
  }

  /** The stream of the symbol records (publics, globals), -1 without one. */
  int symbolRecordStream() {
    return msf.hasStream(symbolRecordStream) ? symbolRecordStream : -1;
  }

  /** Whether the PDB has a symbol record stream (publics and globals). */
  public boolean symbolRecordStreamPresent() {
    return symbolRecordStream() >= 0;
  }

  /** A stream of the DBI's optional debug header ({@code DBG_*}), -1 when absent. */
  int debugStream(int which) {
    int s = debugStreams[which];
    return msf.hasStream(s) ? s : -1;
  }

  /** Whether the PDB carries x86 frame data (FPO or new FPO): {@code STACK WIN} material. */
  public boolean hasFrameData() {
    return debugStream(DBG_FPO) >= 0 || debugStream(DBG_NEW_FPO) >= 0;
  }

  /** The stream named {@code name} in the info stream's map ({@code /names}, {@code /LinkInfo}). */
  public Optional<Integer> namedStream(String name) {
    Integer s = namedStreams.get(name);
    return s != null && msf.hasStream(s) ? Optional.of(s) : Optional.empty();
  }

  /**
   * The RVA of {@code offset} in section {@code segment} (1-based), from the section headers
   * stream; -1 when the segment does not exist.
   */
  public long rva(int segment, long offset) {
    long[] va = sectionAddresses();
    if (segment < 1 || segment > va.length) {
      return -1;
    }
    return va[segment - 1] + offset;
  }

  /** Whether an RVA lies in a section of code ({@code IMAGE_SCN_CNT_CODE} or {@code MEM_EXECUTE}). */
  public boolean isCode(long rva) {
    long[] va = sectionAddresses();
    for (int i = 0; i < va.length; i++) {
      if (rva >= va[i] && rva - va[i] < sectionSizes[i]) {
        return (sectionFlags[i] & 0x20000020) != 0;
      }
    }
    return false;
  }

  /** The end of the last section (the original image's length, for OMAP), 0 without sections. */
  long originalImageLength() {
    long[] va = sectionAddresses();
    long end = 0;
    for (int i = 0; i < va.length; i++) {
      end = Math.max(end, va[i] + sectionSizes[i]);
    }
    return end;
  }

  private long[] sectionAddresses() {
    if (sectionAddresses == null) {
      // symbols are in the linker's sections: the original headers when the image was rewritten
      int s = debugStream(DBG_ORIGINAL_SECTION_HEADERS);
      if (s < 0) {
        s = debugStream(DBG_SECTION_HEADERS);
      }
      if (s < 0) {
        sectionSizes = new long[0];
        sectionFlags = new int[0];
        sectionAddresses = new long[0];
      } else {
        ByteBuffer h = msf.stream(s, "section headers stream");
        int n = h.limit() / 40;
        long[] va = new long[n];
        sectionSizes = new long[n];
        sectionFlags = new int[n];
        for (int i = 0; i < n; i++) {
          va[i] = h.getInt(40 * i + 12) & 0xffffffffL;
          sectionSizes[i] = h.getInt(40 * i + 8) & 0xffffffffL;
          sectionFlags[i] = h.getInt(40 * i + 36);
        }
        sectionAddresses = va;
      }
    }
    return sectionAddresses;
  }
}
