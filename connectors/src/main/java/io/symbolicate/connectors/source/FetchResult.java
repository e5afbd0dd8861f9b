package io.symbolicate.connectors.source;

import java.io.IOException;
import java.io.InputStream;

/**
 * The three outcomes of fetching a debug file, which the caching rules treat differently:
 * found; permanently missing (negative-cached with a TTL); transiently failed (retried, never
 * cached as missing).
 */
public sealed interface FetchResult {

  /**
   * The object exists; the caller reads and closes the stream. {@code companion} is another file
   * a layout found beside it that the converter may use (a sourcemap's minified file, whose
   * function scopes name frames), or null.
   */
  record Found(String location, long size, InputStream body, byte[] companion)
      implements FetchResult, AutoCloseable {
    public Found(String location, long size, InputStream body) {
      this(location, size, body, null);
    }

    /** The same object with a companion file. */
    public Found withCompanion(byte[] file) {
      return new Found(location, size, body, file);
    }

    @Override
    public void close() throws IOException {
      body.close();
    }
  }

  /** No source has the object. */
  record NotFound(String tried) implements FetchResult {}

  /** A source could not answer (5xx, timeout, reset, throttling): try again later. */
  record Failed(String location, String reason) implements FetchResult {}
}
