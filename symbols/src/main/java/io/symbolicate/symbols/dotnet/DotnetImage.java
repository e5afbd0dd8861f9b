package io.symbolicate.symbols.dotnet;

import io.symbolicate.symbols.objects.ObjectFormatException;
import io.symbolicate.symbols.objects.PeCodeView;
import io.symbolicate.symbols.objects.PeDebugEntry;
import io.symbolicate.symbols.objects.PeFile;
import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * A .NET assembly (a PE image with CLI metadata) as a Portable PDB's reader needs it: the
 * Portable PDB it embeds (debug directory entry type 17: {@code MPDB}, the inflated size, raw
 * deflate), the one it names beside it (a CodeView entry of minor version {@code PM}: path and
 * debug id), and the names of its methods (MethodDef and TypeDef of its own metadata).
 */
public final class DotnetImage {
  /** The largest embedded Portable PDB inflated; the size is stated in 32 bits, up to 4 GB. */
  public static final long MAX_EMBEDDED_PDB_BYTES = 512L << 20;

  private static final int MPDB = 0x4244504d; // "MPDB"
  private static final int DIR_CLI_HEADER = 14;

  private final PeFile pe;
  private MethodNames names;

  private DotnetImage(PeFile pe) {
    this.pe = pe;
  }

  public static DotnetImage parse(byte[] data) {
    try {
      return new DotnetImage(PeFile.parse(data));
    } catch (ObjectFormatException e) {
      throw new PortablePdbException(e.getMessage(), e);
    }
  }

  /** Whether the bytes start as a PE image does ({@code MZ}). */
  public static boolean looksLikePe(byte[] data) {
    return data.length >= 2 && data[0] == 'M' && data[1] == 'Z';
  }

  /** The bytes of the embedded Portable PDB, inflated, if the image has one. */
  public Optional<byte[]> embeddedPortablePdb() {
    try {
      for (PeDebugEntry e : pe.debugEntries()) {
        if (e.type() != PeDebugEntry.TYPE_EMBEDDED_PORTABLE_PDB) {
          continue;
        }
        ByteBuffer b = pe.debugEntryData(e);
        if (b.remaining() < 8 || b.getInt(0) != MPDB) {
          throw new PortablePdbException("embedded Portable PDB entry without an MPDB signature");
        }
        long size = b.getInt(4) & 0xffffffffL;
        byte[] deflated = new byte[b.remaining() - 8];
        b.get(8, deflated);
        return Optional.of(
            Inflate.exactly(
                deflated,
                0,
                deflated.length,
                size,
                MAX_EMBEDDED_PDB_BYTES,
                "embedded Portable PDB"));
      }
      return Optional.empty();
    } catch (ObjectFormatException e) {
      throw new PortablePdbException(e.getMessage(), e);
    }
  }

  /**
   * The Portable PDB the image names in its CodeView entry (path and debug id: the GUID and the
   * entry's stamp), if it names one.
   */
  public Optional<PdbReference> portablePdbReference() {
    try {
      for (PeDebugEntry e : pe.debugEntries()) {
        if (e.type() == PeDebugEntry.TYPE_CODEVIEW
            && e.minorVersion() == PeDebugEntry.PORTABLE_PDB_MINOR) {
          Optional<PeCodeView> cv = pe.codeView();
          if (cv.isPresent()) {
            byte[] g = cv.get().guid(); // print order; back to stored order for the formatter
            byte[] stored = Guids.toBigEndian(g);
            return Optional.of(
                new PdbReference(cv.get().path(), PortablePdb.debugId(stored, e.timeDateStamp())));
          }
        }
      }
      return Optional.empty();
    } catch (ObjectFormatException e) {
      throw new PortablePdbException(e.getMessage(), e);
    }
  }

  /** The path and debug id of the Portable PDB an image was built with. */
  public record PdbReference(String path, String debugId) {}

  /** The method names of the image's metadata; empty names when it has no CLI header. */
  public MethodNames methodNames() {
    if (names == null) {
      names = readMethodNames();
    }
    return names;
  }

  private MethodNames readMethodNames() {
    try {
      long[] cli = pe.dataDirectory(DIR_CLI_HEADER);
      if (cli[0] == 0 || cli[1] < 16) {
        return MethodNames.NONE;
      }
      ByteBuffer header = pe.rvaBytes(cli[0], 16, "CLI header");
      long mdRva = header.getInt(8) & 0xffffffffL;
      long mdSize = header.getInt(12) & 0xffffffffL;
      ByteBuffer md = pe.rvaBytes(mdRva, mdSize, "CLI metadata");
      byte[] bytes = new byte[md.remaining()];
      md.get(0, bytes);
      return MethodNames.read(bytes);
    } catch (ObjectFormatException e) {
      throw new PortablePdbException(e.getMessage(), e);
    }
  }
}
