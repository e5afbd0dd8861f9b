package io.symbolicate.connectors.loader.js;

import io.symbolicate.connectors.loader.CompanionFetch;
import io.symbolicate.connectors.loader.ModuleLocator;
import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.symbols.id.SymbolLayout;
import io.symbolicate.symbols.js.JsReleaseModule;
import io.symbolicate.symbols.js.JsSymbolKeys;
import io.symbolicate.symbols.table.ModuleRef;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a JavaScript module's sourcemap lives (docs/js.md), under the scope's prefix:
 * <ul>
 *   <li>a debug id: {@code js/debug-id/{id}/sourcemap};</li>
 *   <li>a release module (release + dist + frame URL): the minified file is fetched first, as
 *   {@code js/release/{release}/{dist|_}/{url}} with the URL as given, without its query, then
 *   in the path-only {@code ~/} forms; its last {@code sourceMappingURL} is resolved against the
 *   frame URL and that map is tried in the same forms (an inline {@code data:} map is used as is);
 *   a {@code //# debugId=} comment in it puts {@code js/debug-id/{id}/sourcemap} first; the guess
 *   {@code <url>.map} comes last.</li>
 * </ul>
 * The minified file (for a debug id: {@code js/debug-id/{id}/minified}, when present) comes along
 * as the result's companion, for naming frames by their enclosing function scope. A transient
 * failure while looking for the minified file fails the whole fetch (retried, never cached as
 * missing).
 */
public final class JsModuleLocator implements ModuleLocator {
  private static final Logger log = LoggerFactory.getLogger(JsModuleLocator.class);

  /** Only the end of a minified file matters, but the comment may hold an inline map. */
  static final int MAX_MINIFIED_BYTES = 64 << 20;

  /**
   * The largest minified file read in this JVM: {@link #MAX_MINIFIED_BYTES}, or an eighth of the
   * max heap when that is less. The file is held in the heap while its sourcemap is parsed (a
   * quarter of the heap at most, {@link io.symbolicate.symbols.io.DebugFileInput#inHeapLimit}).
   */
  static int minifiedCap(long maxHeapBytes) {
    return (int) Math.min(MAX_MINIFIED_BYTES, maxHeapBytes / 8);
  }

  private static final int MINIFIED_CAP = minifiedCap(Runtime.getRuntime().maxMemory());

  /** The minified file's bytes, or null (logged) when it is larger than {@link #MINIFIED_CAP}. */
  private static byte[] readMinified(FetchResult.Found found, InputStream in) throws IOException {
    byte[] bytes = in.readNBytes(MINIFIED_CAP + 1);
    if (bytes.length > MINIFIED_CAP) {
      log.warn(
          "{}: minified file larger than {} bytes (an eighth of the max heap, at most 64 MB) is"
              + " not read: its sourceMappingURL and function scopes are not used",
          found.location(),
          MINIFIED_CAP);
      return null;
    }
    return bytes;
  }

  @Override
  public List<String> keys(ModuleRef ref) {
    String prefix = SymbolLayout.scopePrefix(ref.scope());
    if (!JsReleaseModule.isReleaseKey(ref.key())) {
      return List.of(prefix + JsSymbolKeys.sourcemapByDebugId(ref.key()));
    }
    // without the minified file: the guessed map URL only (fetch() adds the sourceMappingURL)
    JsReleaseModule m = JsReleaseModule.parse(ref.key());
    return prefixed(prefix, JsSymbolKeys.sourcemapCandidates(m.request(), null));
  }

  @Override
  public FetchResult fetch(ModuleRef ref, SourceChain sources) {
    if (!JsReleaseModule.isReleaseKey(ref.key())) {
      return withMinifiedByDebugId(ref, sources, sources.fetchFirst(keys(ref)));
    }
    String prefix = SymbolLayout.scopePrefix(ref.scope());
    JsReleaseModule m = JsReleaseModule.parse(ref.key());
    List<String> tried = new ArrayList<>();
    String minified = null;
    String minifiedAt = null;
    byte[] minifiedFile = null;
    FetchResult mr =
        sources.fetchFirst(prefixed(prefix, JsSymbolKeys.minifiedCandidates(m.request())));
    if (mr instanceof FetchResult.Failed) {
      return mr;
    }
    if (mr instanceof FetchResult.NotFound nf) {
      tried.add(nf.tried());
    } else {
      FetchResult.Found found = (FetchResult.Found) mr;
      minifiedAt = found.location();
      try (found;
          InputStream in = found.body()) {
        byte[] bytes = readMinified(found, in);
        if (bytes != null) {
          minified = tail(bytes);
          minifiedFile = bytes;
        }
      } catch (IOException e) {
        return new FetchResult.Failed(found.location(), "reading the minified file: " + e);
      }
    }
    String smu = minified == null ? null : JsSymbolKeys.sourceMappingUrl(minified);
    if (smu != null && smu.startsWith("data:")) {
      byte[] inline = dataUrl(smu);
      return new FetchResult.Found(
          minifiedAt + " (inline sourcemap)",
          inline.length,
          new ByteArrayInputStream(inline),
          minifiedFile);
    }
    Set<String> keys =
        new LinkedHashSet<>(
            prefixed(prefix, JsSymbolKeys.sourcemapCandidates(m.request(), minified)));
    keys.addAll(keys(ref)); // the guessed <url>.map last
    FetchResult r = sources.fetchFirst(new ArrayList<>(keys));
    if (r instanceof FetchResult.NotFound nf) {
      tried.add(nf.tried());
      return new FetchResult.NotFound(String.join(", ", tried));
    }
    return r instanceof FetchResult.Found f && minifiedFile != null
        ? f.withCompanion(minifiedFile)
        : r;
  }

  /** A debug id's map found: its minified file joins it when the bucket has one. */
  private static FetchResult withMinifiedByDebugId(
      ModuleRef ref, SourceChain sources, FetchResult map) {
    if (!(map instanceof FetchResult.Found found)) {
      return map;
    }
    String key = SymbolLayout.scopePrefix(ref.scope()) + JsSymbolKeys.minifiedByDebugId(ref.key());
    return CompanionFetch.attach(
        found,
        sources.fetchFirst(List.of(key)),
        "the minified file",
        JsModuleLocator::readMinified);
  }

  /**
   * The end of a minified file that holds its trailing comments: from the line of the earlier of
   * the last {@code sourceMappingURL=} and the last {@code debugId=}; else its last 4 KB. Only
   * this part becomes a String, so a large bundle costs its bytes once.
   */
  static String tail(byte[] file) {
    int from =
        Math.min(
            lineStart(file, lastIndexOf(file, "sourceMappingURL=")),
            lineStart(file, lastIndexOf(file, "debugId=")));
    if (from == Integer.MAX_VALUE) {
      from = Math.max(0, file.length - 4096);
    }
    return new String(file, from, file.length - from, StandardCharsets.UTF_8);
  }

  private static int lastIndexOf(byte[] hay, String needle) {
    byte[] n = needle.getBytes(StandardCharsets.US_ASCII);
    outer:
    for (int i = hay.length - n.length; i >= 0; i--) {
      for (int j = 0; j < n.length; j++) {
        if (hay[i + j] != n[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private static int lineStart(byte[] file, int at) {
    if (at < 0) {
      return Integer.MAX_VALUE;
    }
    int i = at;
    while (i > 0 && file[i - 1] != '\n' && file[i - 1] != '\r') {
      i--;
    }
    return i;
  }

  /**
   * The body of a {@code data:} URL (base64 or percent-encoded). A broken one yields its raw
   * text, which the converter then reports as a malformed sourcemap.
   */
  static byte[] dataUrl(String url) {
    int comma = url.indexOf(',');
    if (comma < 0) {
      return url.getBytes(StandardCharsets.UTF_8);
    }
    String meta = url.substring(5, comma);
    String data = url.substring(comma + 1);
    try {
      return meta.endsWith(";base64")
          ? Base64.getMimeDecoder().decode(data)
          : URLDecoder.decode(data.replace("+", "%2B"), StandardCharsets.UTF_8)
              .getBytes(StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return data.getBytes(StandardCharsets.UTF_8);
    }
  }

  private static List<String> prefixed(String prefix, List<JsSymbolKeys.Candidate> candidates) {
    return candidates.stream().map(c -> prefix + c.objectKey()).toList();
  }
}
