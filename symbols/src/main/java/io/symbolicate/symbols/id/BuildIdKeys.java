package io.symbolicate.symbols.id;

import java.util.Locale;

/**
 * A native module named by its ELF build id (code id) alone, without a debug id: the module key
 * {@code buildid/<code id>} or {@code buildid/<code id>/<file name>}. The build id cannot be
 * recovered from a debug id (which keeps its first 16 bytes only), and the build-id layouts
 * (unified, symstore, debuginfod) need all of it, so the key keeps it; the Breakpad layouts are
 * searched with the debug id derived from it ({@link #debugId}), as Breakpad and Symbolicator
 * derive it.
 */
public final class BuildIdKeys {
  /** The key's prefix (a debug id is upper-case hex, a build id here lower-case: no overlap). */
  public static final String PREFIX = "buildid/";

  /** Longest build id accepted, in bytes (GNU ld writes 20, others 16 or 8; Go writes more). */
  static final int MAX_BUILD_ID_BYTES = 40;

  private BuildIdKeys() {}

  /** The module's identity: the build id (lower-case hex) and the file name, or null. */
  public record BuildId(String codeId, String fileName) {
    /** The Breakpad debug id derived from the build id. */
    public String debugId() {
      return BuildIdKeys.debugId(codeId);
    }
  }

  public static boolean isBuildIdKey(String moduleKey) {
    return moduleKey.startsWith(PREFIX);
  }

  /**
   * The key of a module named by {@code codeId} (hex, dashes allowed) and, when known, the base
   * name of its file; throws for an id or a name that must not become a key.
   */
  public static String key(String codeId, String fileName) {
    String id = requireBuildId(codeId);
    return fileName == null || fileName.isEmpty()
        ? PREFIX + id
        : PREFIX + id + "/" + DebugIdentifiers.requireFileName(fileName);
  }

  /** The identity a {@code buildid/...} key names, validated. */
  public static BuildId parse(String moduleKey) {
    if (!isBuildIdKey(moduleKey)) {
      throw new DebugIdentifiers.InvalidIdentifierException(
          "not a build-id module key: " + DebugIdentifiers.printable(moduleKey));
    }
    String rest = moduleKey.substring(PREFIX.length());
    int slash = rest.indexOf('/');
    String id = slash < 0 ? rest : rest.substring(0, slash);
    String name = slash < 0 ? null : DebugIdentifiers.requireFileName(rest.substring(slash + 1));
    return new BuildId(requireBuildId(id), name);
  }

  /**
   * Breakpad's debug id of an ELF file with this build id: its first 16 bytes (zero-padded) as a
   * GUID whose first three fields are read little-endian, then age 0, as Breakpad's {@code
   * dump_syms} and Symbolicator derive it. (A big-endian file's debug id keeps the byte order;
   * a code id alone does not say the file's byte order, and little-endian is what crash reports
   * of today's machines carry.)
   */
  public static String debugId(String codeId) {
    String hex = requireBuildId(codeId);
    byte[] g = new byte[16];
    for (int i = 0; i < 16 && 2 * i + 1 < hex.length(); i++) {
      g[i] = (byte) Integer.parseInt(hex, 2 * i, 2 * i + 2, 16);
    }
    swap(g, 0, 3);
    swap(g, 1, 2);
    swap(g, 4, 5);
    swap(g, 6, 7);
    StringBuilder b = new StringBuilder(33);
    for (byte x : g) {
      b.append(Character.forDigit((x >> 4) & 0xf, 16)).append(Character.forDigit(x & 0xf, 16));
    }
    return b.append('0').toString().toUpperCase(Locale.ROOT);
  }

  /** Lower-case hex of whole bytes, dashes removed; throws for anything else. */
  public static String requireBuildId(String codeId) {
    if (codeId == null || codeId.isEmpty()) {
      throw new DebugIdentifiers.InvalidIdentifierException("code id is empty");
    }
    String hex = codeId.indexOf('-') < 0 ? codeId : codeId.replace("-", "");
    if (hex.length() % 2 != 0
        || hex.length() / 2 > MAX_BUILD_ID_BYTES
        || !DebugIdentifiers.isHex(hex)) {
      throw new DebugIdentifiers.InvalidIdentifierException(
          "code id must be a build id of 1 to "
              + MAX_BUILD_ID_BYTES
              + " bytes in hex: "
              + DebugIdentifiers.printable(codeId));
    }
    return hex.toLowerCase(Locale.ROOT);
  }

  private static void swap(byte[] b, int i, int j) {
    byte t = b[i];
    b[i] = b[j];
    b[j] = t;
  }
}
