package io.symbolicate.symbols.minidump;

import java.util.HexFormat;

/**
 * One loaded module (MDRawModule) with its CodeView record, and the identifiers Breakpad derives:
 * the debug file and debug id a symbol store is keyed by, the code id and the version.
 */
public record Module(
    long base,
    long size,
    long checksum,
    long timeDateStamp,
    String codeFile,
    long versionSignature,
    long structVersion,
    long fileVersionHi,
    long fileVersionLo,
    CodeView codeView,
    String miscDebugFile,
    long platformId) {

  /** The parsed CodeView record: PDB 7.0 (GUID + age), PDB 2.0 (signature + age) or ELF build id. */
  public record CodeView(int kind, byte[] guidOrBuildId, long signature, long age, String pdbFile) {
    public static final int PDB70 = 0x53445352; // RSDS
    public static final int PDB20 = 0x3031424e; // NB10
    public static final int ELF = 0x4270454c; // BpEL
  }

  public long end() {
    return base + size;
  }

  public boolean contains(long address) {
    return Long.compareUnsigned(address, base) >= 0
        && Long.compareUnsigned(address - base, size) < 0;
  }

  /** {@code a.b.c.d} from VS_FIXEDFILEINFO, or empty. */
  public String version() {
    if (versionSignature != 0xfeef04bdL || (structVersion & 0x10000) == 0) {
      return "";
    }
    return (fileVersionHi >>> 16)
        + "."
        + (fileVersionHi & 0xFFFF)
        + "."
        + (fileVersionLo >>> 16)
        + "."
        + (fileVersionLo & 0xFFFF);
  }

  /** The PDB name, or the code file for ELF; the misc record's name as a last resort. */
  public String debugFile() {
    String file = "";
    if (codeView != null) {
      file =
          switch (codeView.kind()) {
            case CodeView.PDB70, CodeView.PDB20 -> codeView.pdbFile();
            case CodeView.ELF -> codeFile;
            default -> "";
          };
    }
    if (file.isEmpty() && miscDebugFile != null) {
      file = miscDebugFile;
    }
    return file;
  }

  /** Breakpad's debug id: GUID fields and age in hex (ELF: the first 16 build-id bytes, age 0). */
  public String debugId() {
    if (codeView == null) {
      return "";
    }
    switch (codeView.kind()) {
      case CodeView.PDB70:
        return guidAndAge(codeView.guidOrBuildId(), codeView.age());
      case CodeView.PDB20:
        return String.format("%08X%x", codeView.signature(), codeView.age());
      case CodeView.ELF:
        {
          byte[] guid = new byte[16];
          byte[] id = codeView.guidOrBuildId();
          System.arraycopy(id, 0, guid, 0, Math.min(16, id.length));
          return guidAndAge(guid, 0);
        }
      default:
        return "";
    }
  }

  /** Breakpad's code id: timestamp and image size on Windows, the build id on Linux, else "id". */
  public String codeId() {
    if (platformId == SystemInfo.OS_WIN32_NT || platformId == SystemInfo.OS_WIN32_WINDOWS) {
      return String.format("%08X%x", timeDateStamp, size);
    }
    boolean elfOs =
        platformId == SystemInfo.OS_LINUX
            || platformId == SystemInfo.OS_ANDROID
            || platformId == SystemInfo.OS_FUCHSIA;
    if (elfOs && codeView != null && codeView.kind() == CodeView.ELF) {
      return HexFormat.of().formatHex(codeView.guidOrBuildId());
    }
    if (elfOs
        || platformId == SystemInfo.OS_MAC
        || platformId == SystemInfo.OS_IOS
        || platformId == SystemInfo.OS_SOLARIS
        || platformId == SystemInfo.OS_NACL
        || platformId == SystemInfo.OS_PS3) {
      return "id";
    }
    return "";
  }

  static String guidAndAge(byte[] g, long age) {
    StringBuilder sb = new StringBuilder(41);
    hex(sb, LittleEndian.u32(g, 0), 8);
    hex(sb, LittleEndian.u16(g, 4), 4);
    hex(sb, LittleEndian.u16(g, 6), 4);
    for (int i = 8; i < 16; i++) {
      hex(sb, g[i] & 0xFF, 2);
    }
    sb.append(Long.toHexString(age));
    return sb.toString();
  }

  /** Upper-case hex of {@code v}, zero-padded to {@code digits}. */
  private static void hex(StringBuilder sb, long v, int digits) {
    for (int i = digits - 1; i >= 0; i--) {
      sb.append(Character.toUpperCase(Character.forDigit((int) (v >>> (4 * i)) & 0xF, 16)));
    }
  }
}
