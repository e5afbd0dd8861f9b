package io.symbolicate.connectors.loader;

import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.connectors.source.SymbolSource;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source bundle beside a module's debug file, fetched after the debug file and handed to the
 * converter as the fetch's companion (docs/sources.md, "Where the loader finds them"); shared by
 * the native and .NET locators. No bundle is not an error; a bundle that a source cannot serve
 * now fails the fetch (retried: a table built without it would lack context until the next
 * rebuild); one larger than the cap is left out.
 */
public final class SourceBundleFetch {
  private static final Logger log = LoggerFactory.getLogger(SourceBundleFetch.class);

  /** A source bundle is held in the heap while it converts: at most this much (compressed). */
  public static final int MAX_SOURCE_BUNDLE_BYTES = 256 << 20;

  private SourceBundleFetch() {}

  /** The cap for this JVM: {@link #MAX_SOURCE_BUNDLE_BYTES}, or an eighth of the max heap. */
  public static int cap() {
    return (int) Math.min(MAX_SOURCE_BUNDLE_BYTES, Runtime.getRuntime().maxMemory() / 8);
  }

  /**
   * {@code found} with the first bundle of {@code keys} (per source) as its companion, or {@code
   * found} as it is when there is none or it is over {@code cap}; a {@link FetchResult.Failed}
   * (and {@code found} closed) when a source could not answer or the bundle could not be read.
   */
  public static FetchResult attach(
      FetchResult.Found found,
      SourceChain sources,
      Function<SymbolSource, List<String>> keys,
      int cap) {
    FetchResult bundle = sources.fetchFirst(keys);
    if (bundle instanceof FetchResult.NotFound) {
      return found;
    }
    if (bundle instanceof FetchResult.Failed failed) {
      closeQuietly(found);
      return failed;
    }
    FetchResult.Found b = (FetchResult.Found) bundle;
    try (b;
        InputStream in = b.body()) {
      byte[] bytes = in.readNBytes(cap + 1);
      if (bytes.length > cap) {
        log.warn(
            "{}: source bundle larger than {} bytes left out; the module has no source context",
            b.location(),
            cap);
        return found;
      }
      return found.withCompanion(bytes);
    } catch (IOException e) {
      closeQuietly(found);
      return new FetchResult.Failed(b.location(), "reading the source bundle: " + e);
    }
  }

  private static void closeQuietly(FetchResult.Found f) {
    try {
      f.close();
    } catch (IOException ignored) {
      // the fetch is failing anyway
    }
  }
}
