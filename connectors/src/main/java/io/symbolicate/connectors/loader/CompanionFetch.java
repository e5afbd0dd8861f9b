package io.symbolicate.connectors.loader;

import io.symbolicate.connectors.source.FetchResult;
import java.io.IOException;
import java.io.InputStream;

/**
 * A second file fetched after a module's main file and handed to the converter with it as the
 * fetch's companion (a source bundle beside a debug file, a minified file beside its source map).
 * No companion is not an error; one that a source cannot serve now fails the fetch, as does one
 * that cannot be read; one the reader leaves out (over its cap) leaves the main file alone.
 */
public final class CompanionFetch {
  /** Reads a companion's bytes; null leaves it out. */
  @FunctionalInterface
  public interface Reader {
    byte[] read(FetchResult.Found companion, InputStream in) throws IOException;
  }

  private CompanionFetch() {}

  /**
   * {@code found} with {@code companion}'s bytes as its companion, or as it is when there is none
   * or {@code reader} leaves it out; a {@link FetchResult.Failed} (and {@code found} closed) when
   * the companion's source failed or reading it did ({@code what} names it in the reason).
   */
  public static FetchResult attach(
      FetchResult.Found found, FetchResult companion, String what, Reader reader) {
    if (companion instanceof FetchResult.NotFound) {
      return found;
    }
    if (companion instanceof FetchResult.Failed failed) {
      closeQuietly(found);
      return failed;
    }
    FetchResult.Found c = (FetchResult.Found) companion;
    try (c;
        InputStream in = c.body()) {
      byte[] bytes = reader.read(c, in);
      return bytes != null ? found.withCompanion(bytes) : found;
    } catch (IOException e) {
      closeQuietly(found);
      return new FetchResult.Failed(c.location(), "reading " + what + ": " + e);
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
