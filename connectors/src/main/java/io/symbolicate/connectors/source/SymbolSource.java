package io.symbolicate.connectors.source;

/**
 * Somewhere debug files live: an S3 bucket, a local directory, an HTTP symbol server. Keys are
 * relative paths produced by a {@link SymbolLayout} from validated identifiers.
 */
public interface SymbolSource extends AutoCloseable {

  /** A short name for logs and status messages (never contains credentials). */
  String name();

  /** Fetches one object; never throws for missing objects or transient failures. */
  FetchResult fetch(String key);

  @Override
  default void close() {}
}
