package io.symbolicate.symbols.pdb;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The x86 frame data of a PDB, the material of Breakpad's {@code STACK WIN} records: the new FPO
 * stream ({@code FRAMEDATA}, 32 bytes each, the program string an offset into {@code /names})
 * and the old FPO stream ({@code FPO_DATA}, 16 bytes each), merged in address order, an FPO
 * record at the address of a frame data record left out, as msdia140 (the DIA of today's
 * {@code dump_syms.exe}) enumerates them. A record count is the stream's size over the record
 * size, so nothing is sized from a claim; a stream whose size is no multiple of its record is
 * refused.
 */
public final class PdbFrameData {
  static final int FRAME_DATA_SIZE = 32;
  static final int FPO_DATA_SIZE = 16;

  private PdbFrameData() {}

  public static List<PdbFrame> read(PdbFile pdb) {
    List<PdbFrame> out = new ArrayList<>();
    int newFpo = pdb.debugStream(PdbFile.DBG_NEW_FPO);
    if (newFpo >= 0) {
      ByteBuffer names = PdbLines.stringTable(pdb);
      ByteBuffer b = records(pdb, newFpo, FRAME_DATA_SIZE, "new FPO stream");
      for (int at = 0; at + FRAME_DATA_SIZE <= b.limit(); at += FRAME_DATA_SIZE) {
        long frameFunc = b.getInt(at + 20) & 0xffffffffL;
        String program =
            frameFunc < names.limit()
                ? PdbFile.cString(names, (int) frameFunc, names.limit())
                : null;
        out.add(
            new PdbFrame(
                4,
                u32(b, at),
                u32(b, at + 4),
                b.getShort(at + 24) & 0xffff,
                u32(b, at + 12),
                b.getShort(at + 26) & 0xffff,
                u32(b, at + 8),
                u32(b, at + 16),
                program,
                false));
      }
    }
    Set<Long> frameDataRvas = new HashSet<>();
    for (PdbFrame f : out) {
      frameDataRvas.add(f.rva());
    }
    int fpo = pdb.debugStream(PdbFile.DBG_FPO);
    if (fpo >= 0) {
      ByteBuffer b = records(pdb, fpo, FPO_DATA_SIZE, "FPO stream");
      for (int at = 0; at + FPO_DATA_SIZE <= b.limit(); at += FPO_DATA_SIZE) {
        int bits = b.getShort(at + 14) & 0xffff;
        if (frameDataRvas.contains(u32(b, at))) {
          continue;
        }
        out.add(
            new PdbFrame(
                bits >>> 14, // cbFrame: FRAME_FPO, _TRAP, _TSS, _NONFPO
                u32(b, at),
                u32(b, at + 4),
                bits & 0xff,
                4L * (b.getShort(at + 12) & 0xffff),
                4L * ((bits >>> 8) & 7),
                4L * u32(b, at + 8),
                0,
                null,
                (bits & 0x1000) != 0));
      }
    }
    out.sort(Comparator.comparingLong(PdbFrame::rva)); // stable: stream order at one address
    return out;
  }

  private static ByteBuffer records(PdbFile pdb, int stream, int size, String what) {
    long bytes = pdb.msf().streamSize(stream);
    if (bytes % size != 0) {
      throw new PdbFormatException(
          what + " of " + bytes + " bytes is no whole number of " + size + "-byte records");
    }
    return pdb.msf().stream(stream, what);
  }

  private static long u32(ByteBuffer b, int at) {
    return b.getInt(at) & 0xffffffffL;
  }
}
