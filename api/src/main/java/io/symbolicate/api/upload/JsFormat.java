package io.symbolicate.api.upload;

import io.symbolicate.symbols.id.SymbolLayout;
import io.symbolicate.symbols.io.DebugFileInput;
import io.symbolicate.symbols.js.JsReleaseModule;
import io.symbolicate.symbols.js.JsSymbolKeys;
import io.symbolicate.symbols.js.SourceMapException;
import io.symbolicate.symbols.js.SourceMapParser;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * A sourcemap or its minified file, named by a debug id ({@code js/debug-id/<id>/sourcemap|minified})
 * or by release, dist and URL ({@code js/release/<release>/<dist|_>/<url>}), the layout the
 * loader reads (docs/js.md). A sourcemap must parse ({@link SourceMapParser}); a minified file is
 * stored as it is. Announced: the debug id's module, or the release module of the URL (of a map
 * URL ending in {@code .map}, the URL without it, as the S3 connector names it).
 */
public final class JsFormat implements UploadFormat {
  /** Which of the two files. */
  public enum Kind {
    SOURCEMAP,
    MINIFIED
  }

  private final Kind kind;
  private final String debugId;
  private final JsReleaseModule release;
  private final long maxFileBytes;

  private JsFormat(Kind kind, String debugId, JsReleaseModule release, long maxFileBytes) {
    this.kind = kind;
    this.debugId = debugId;
    this.release = release;
    this.maxFileBytes = maxFileBytes;
  }

  /** From the request's {@code DebugID}, or {@code Release}, {@code Dist} and {@code URL}. */
  static JsFormat of(
      Kind kind, String debugIdHeader, String release, String dist, String url, long maxFileBytes)
      throws UploadError {
    if (debugIdHeader != null) {
      String id = JsSymbolKeys.normalizeDebugId(debugIdHeader);
      if (id == null) {
        throw UploadError.badRequest("DebugID is not a UUID");
      }
      return new JsFormat(kind, id, null, maxFileBytes);
    }
    if (release == null || url == null) {
      throw UploadError.badRequest(
          "a DebugID header, or Release and URL headers (and Dist, if any), are required");
    }
    try {
      return new JsFormat(
          kind,
          null,
          new JsReleaseModule(release, dist == null || dist.isEmpty() ? null : dist, url),
          maxFileBytes);
    } catch (IllegalArgumentException e) {
      throw UploadError.badRequest("Release, Dist or URL: " + e.getMessage());
    }
  }

  @Override
  public String stagingName() {
    return kind == Kind.SOURCEMAP ? "js-sourcemap" : "js-minified";
  }

  /** The staging id: the debug id, or a digest of the release's key (URLs do not fit a key segment). */
  String id() {
    if (debugId != null) {
      return debugId;
    }
    try {
      byte[] d =
          MessageDigest.getInstance("SHA-256")
              .digest(release.key().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  @Override
  public List<Placement> place(String scope, String id, Path file, Path work)
      throws UploadError, IOException {
    if (kind == Kind.SOURCEMAP) {
      try {
        SourceMapParser.forHeap(release == null ? "upload" : release.url(), maxFileBytes)
            .parse(file);
      } catch (SourceMapException e) {
        throw UploadError.invalidFile("not a valid sourcemap: " + e.getMessage());
      } catch (DebugFileInput.CorruptInputException e) {
        // a gzip-compressed sourcemap that does not inflate: the client's file, not our I/O
        // (a fuzz finding: it was a 500)
        throw UploadError.invalidFile("not a valid sourcemap: " + e.getMessage());
      } catch (DebugFileInput.TooLargeException e) {
        throw new UploadError(413, UploadError.TOO_LARGE, "the sourcemap " + e.getMessage());
      }
    }
    String prefix = SymbolLayout.scopePrefix(scope);
    if (debugId != null) {
      String key =
          kind == Kind.SOURCEMAP
              ? JsSymbolKeys.sourcemapByDebugId(debugId)
              : JsSymbolKeys.minifiedByDebugId(debugId);
      return List.of(
          new Placement(prefix + key, file, new ModuleRef(scope, TableKind.JS, debugId)));
    }
    String url = release.url();
    JsReleaseModule module = release;
    if (kind == Kind.SOURCEMAP && url.endsWith(".map") && url.length() > ".map".length()) {
      module =
          new JsReleaseModule(
              release.release(), release.dist(), url.substring(0, url.length() - ".map".length()));
    }
    return List.of(
        new Placement(
            prefix + JsSymbolKeys.releaseFile(release.release(), release.dist(), url),
            file,
            new ModuleRef(scope, TableKind.JS, module.key())));
  }
}
