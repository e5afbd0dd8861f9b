package io.symbolicate.api.upload;

import io.symbolicate.api.upload.UploadFormat.Placement;
import io.symbolicate.symbols.id.DebugFileLayout;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.id.SymbolLayout;
import io.symbolicate.symbols.jvm.JvmSourceBundle;
import io.symbolicate.symbols.jvm.MappingLocator;
import io.symbolicate.symbols.sources.SourceBundle;
import io.symbolicate.symbols.sources.SourceBundleException;
import io.symbolicate.symbols.sources.SourceFile;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A source bundle sent to the debug-file routes (told by its {@code SYSB} header): read whole
 * (manifest and files, with the reader's limits), its manifest's debug id checked against the
 * URL's or the {@code DebugID} header, and stored beside the module's debug file in the {@code
 * native} layout ({@code <name>/<DEBUG_ID>/<name without extension>.src.zip}), where the loader
 * looks for it; the module is announced, so its table is built again with the sources.
 */
final class SourceBundleUpload {
  /** The largest bundle taken (the loader reads at most this much of one). */
  static final long MAX_BYTES = 256L << 20;

  private SourceBundleUpload() {}

  static boolean isSourceBundle(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return Arrays.equals(in.readNBytes(4), new byte[] {'S', 'Y', 'S', 'B'});
    }
  }

  /**
   * @param name the debug file's name (the header's or URL's), else the manifest's {@code
   *     object_name}
   * @param expectedId the debug id the URL or header names, or null
   */
  static List<Placement> place(String scope, Path file, String name, String expectedId)
      throws UploadError, IOException {
    if (Files.size(file) > MAX_BYTES) {
      throw new UploadError(
          413, UploadError.TOO_LARGE, "a source bundle over " + MAX_BYTES + " bytes");
    }
    SourceBundle b;
    try {
      b = SourceBundle.read(Files.readAllBytes(file));
    } catch (SourceBundleException e) {
      throw UploadError.invalidFile("source bundle: " + e.getMessage());
    }
    if (name == null && isJvmBundle(b)) {
      return List.of(placeJvm(scope, file, b, expectedId));
    }
    String id;
    try {
      id = b.debugId() == null || b.debugId().isBlank() ? expectedId : breakpadId(b.debugId());
    } catch (IllegalArgumentException e) {
      throw UploadError.invalidFile("source bundle: manifest debug_id: " + e.getMessage());
    }
    if (id == null) {
      throw UploadError.invalidFile(
          "source bundle: the manifest names no debug_id and neither does the request");
    }
    if (expectedId != null && !expectedId.equals(id)) {
      throw idMismatch(expectedId, id);
    }
    String n = name != null ? name : b.objectName();
    if (n == null) {
      throw UploadError.badRequest(
          "a source bundle needs the debug file's name (DebugFile header, the URL's, or the"
              + " manifest's object_name)");
    }
    DebugFileLayout.Query q;
    try {
      q = new DebugFileLayout.Query(n, id, null, null);
    } catch (IllegalArgumentException e) {
      throw UploadError.badRequest(e.getMessage());
    }
    String key = DebugFileLayout.NATIVE.keys(q, DebugFileLayout.Kind.SOURCE_BUNDLE).get(0);
    String moduleKey = DebugIdentifiers.nativeModule(q.debugFile(), id).key();
    ModuleRef module = new ModuleRef(scope, TableKind.NATIVE, moduleKey);
    // a .pdb may be a Windows PDB (native) or a Portable PDB (.NET), and both go to this key:
    // the bundle does not say which, so both tables are built again (the other kind's load
    // ends as a state of a module no event names)
    List<ModuleRef> also =
        q.debugFile().toLowerCase(Locale.ROOT).endsWith(".pdb")
            ? List.of(new ModuleRef(scope, TableKind.DOTNET, moduleKey))
            : List.of();
    return List.of(new Placement(SymbolLayout.scopePrefix(scope) + key, file, module, also));
  }

  /**
   * Whether the bundle is a JVM one, as {@code sentry-cli debug-files bundle-jvm} writes it: no
   * {@code object_name}, and every file known by a URL {@code ~/...jvm} and no path.
   */
  static boolean isJvmBundle(SourceBundle b) {
    if (b.objectName() != null || b.files().isEmpty()) {
      return false;
    }
    for (SourceFile f : b.files()) {
      if (f.path() != null
          || f.url() == null
          || !f.url().startsWith("~/")
          || !f.url().endsWith(".jvm")) {
        return false;
      }
    }
    return true;
  }

  /**
   * A JVM source bundle: stored at its debug id (the manifest's, else the URL's; both a UUID) in
   * the {@code unified} layout, where the loader looks for it, and announced as the JVM module
   * {@code source/<uuid>} (docs/jvm.md, "Source context").
   */
  private static Placement placeJvm(String scope, Path file, SourceBundle b, String expectedId)
      throws UploadError {
    String fromUrl = expectedId == null ? null : jvmUuid(expectedId);
    String uuid;
    if (b.debugId() == null || b.debugId().isBlank()) {
      uuid = fromUrl;
    } else {
      uuid = jvmUuid(b.debugId());
      if (uuid == null) {
        throw UploadError.invalidFile(
            "JVM source bundle: manifest debug_id is not a UUID: " + clip(b.debugId()));
      }
    }
    if (uuid == null) {
      throw UploadError.invalidFile(
          "JVM source bundle: the manifest names no debug_id (a UUID) and neither does the"
              + " request");
    }
    if (expectedId != null && !uuid.equals(fromUrl)) {
      throw idMismatch(expectedId, uuid);
    }
    return new Placement(
        SymbolLayout.scopePrefix(scope) + JvmSourceBundle.objectKeys(uuid).get(0),
        file,
        new ModuleRef(scope, TableKind.JVM, JvmSourceBundle.moduleKey(uuid)));
  }

  private static UploadError idMismatch(String fromUrl, String inManifest) {
    return UploadError.invalidFile(
        "the URL names debug id "
            + fromUrl
            + " but the source bundle's manifest names "
            + inManifest
            + ": nothing stored");
  }

  /** A debug id as a UUID (32 hex digits, maybe with dashes and an age of 0), or null. */
  private static String jvmUuid(String id) {
    String hex = id.replace("-", "");
    if (hex.length() == 33 && hex.endsWith("0")) {
      hex = hex.substring(0, 32);
    }
    if (hex.length() != 32) {
      return null;
    }
    try {
      return MappingLocator.normaliseUuid(hex);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** A manifest's debug id (a UUID, maybe with the age after a dash) as Breakpad writes it. */
  static String breakpadId(String uuid) {
    String hex = DebugIdentifiers.normalizeDebugId(uuid);
    return hex.length() == 32 ? hex + "0" : hex;
  }

  private static String clip(String s) {
    String p = s.replaceAll("\\p{Cntrl}", "?");
    return "'" + (p.length() <= 80 ? p : p.substring(0, 77) + "...") + "'";
  }
}
