package io.symbolicate.connectors.loader;

import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.connectors.source.SymbolSource;
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
    return CompanionFetch.attach(
        found,
        sources.fetchFirst(keys),
        "the source bundle",
        (b, in) -> {
          byte[] bytes = in.readNBytes(cap + 1);
          if (bytes.length > cap) {
            log.warn(
                "{}: source bundle larger than {} bytes left out; the module has no source context",
                b.location(),
                cap);
            return null;
          }
          return bytes;
        });
  }
}
