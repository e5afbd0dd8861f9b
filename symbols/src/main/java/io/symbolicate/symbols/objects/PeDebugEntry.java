package io.symbolicate.symbols.objects;

/**
 * One entry of a PE debug directory ({@code IMAGE_DEBUG_DIRECTORY}): its type (2 CodeView, 16
 * PDB checksum, 17 embedded Portable PDB, ...), stamp and version, and where its data is.
 */
public record PeDebugEntry(
    int type,
    long timeDateStamp,
    int majorVersion,
    int minorVersion,
    long dataSize,
    long rva,
    long fileOffset) {
  public static final int TYPE_CODEVIEW = 2;
  public static final int TYPE_EMBEDDED_PORTABLE_PDB = 17;

  /** The minor version a CodeView entry has when it names a Portable PDB ({@code PM}). */
  public static final int PORTABLE_PDB_MINOR = 0x504d;
}
