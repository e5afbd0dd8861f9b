package io.symbolicate.symbols.source;

import java.io.IOException;
import java.io.InputStream;

/**
 * The three outcomes of fetching a debug file, which the caching rules treat differently:
 * found; permanently missing (negative-cached with a TTL); transiently failed (retried, never
 * cached as missing).
 */
public sealed interface FetchResult {

  /** The object exists; the caller reads and closes the stream. */
  record Found(String location, long size, InputStream body) implements FetchResult, AutoCloseable {
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
