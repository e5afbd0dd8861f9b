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

  /**
   * The key in this source of the file a symbol store's {@code file.ptr} points at ({@code
   * PATH:<path>}), or null when the path leads out of the source: redirects are followed only
   * within it. By default a relative path (either separator), without dot or empty segments.
   */
  default String keyOfPointer(String path) {
    return FilePointer.relativeKey(path);
  }

  @Override
  default void close() {}
}
