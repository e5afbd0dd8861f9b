package io.symbolicate.connectors.source;

/**
 * Somewhere debug files live: an S3 bucket, a local directory, an HTTP symbol server. Keys are
 * relative paths produced by a {@link SymbolLayout} from validated identifiers.
 */
public interface SymbolSource extends AutoCloseable {

  /** A short name for logs and status messages (never contains credentials). */
  String name();

  /**
   * The kind of source as the configuration names it ({@code s3}, {@code dir}, {@code http}):
   * per-kind settings such as the debug-file layouts a source is searched in.
   */
  default String type() {
    return "other";
  }

  /** Fetches one object; never throws for missing objects or transient failures. */
  FetchResult fetch(String key);

  @Override
  default void close() {}
}
