package io.symbolicate.symbols.symbfile;

import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.id.SymbolLayout;

/**
 * Names of an executable known by its Elastic FileID (docs/symbfile.md): the native module key
 * {@code symbfile/<FileID>} (22 characters of unpadded base64url), which is also the folder of
 * its two files under the scope's prefix, {@code ranges.symbfile} and {@code returnpads.symbfile}.
 */
public final class SymbfileKeys {
  /** Native module keys that name a FileID start with this (a debug file is never named so). */
  public static final String MODULE_PREFIX = "symbfile/";

  public static final String RANGES = "ranges.symbfile";
  public static final String RETURN_PADS = "returnpads.symbfile";

  private SymbfileKeys() {}

  /** Whether a native module key names a FileID rather than {@code debug_file/debug_id}. */
  public static boolean isFileIdKey(String moduleKey) {
    return moduleKey.startsWith(MODULE_PREFIX);
  }

  /** The FileID of a {@code symbfile/<FileID>} key (base64url, base64 or hex accepted). */
  public static FileId fileId(String moduleKey) {
    if (!isFileIdKey(moduleKey)) {
      throw new DebugIdentifiers.InvalidIdentifierException(
          "not a FileID module key: " + moduleKey);
    }
    try {
      return FileId.parse(moduleKey.substring(MODULE_PREFIX.length()));
    } catch (SymbfileException e) {
      throw new DebugIdentifiers.InvalidIdentifierException(
          "bad FileID in module key: " + e.getMessage());
    }
  }

  /** The module key of a FileID, as the stream and the loader name it. */
  public static String moduleKey(FileId id) {
    return MODULE_PREFIX + id.toBase64();
  }

  /** The folder of the FileID's files, under the scope's prefix, ending in a slash. */
  public static String folder(String scope, FileId id) {
    return SymbolLayout.scopePrefix(scope) + moduleKey(id) + "/";
  }

  public static String ranges(String scope, FileId id) {
    return folder(scope, id) + RANGES;
  }

  public static String returnPads(String scope, FileId id) {
    return folder(scope, id) + RETURN_PADS;
  }
}
