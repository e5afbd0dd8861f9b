package io.symbolicate.api.collect;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * Where the collector keeps dumps and its pending markers: an S3 bucket ({@link S3DumpStore}).
 * Keys are full object keys; failures are {@link IOException}s.
 */
public interface DumpStore {
  /** A stored file: its size and SHA-256 (64 lower-case hex digits), counted as it streamed. */
  record Stored(String bucket, String key, long size, String sha256) {}

  /** An object of a listing. */
  record Listed(String key, long lastModifiedMillis) {}

  /** The bucket, as events name it. */
  String bucket();

  /**
   * Streams {@code in} to {@code key}, holding a bounded buffer whatever its length. A failure
   * (of the input or the store) leaves nothing under the key.
   */
  Stored put(String key, InputStream in) throws IOException;

  /** A small object (a pending marker), whole. */
  void putSmall(String key, byte[] bytes) throws IOException;

  /** A small object, at most {@code max} bytes; null when absent. */
  byte[] getSmall(String key, int max) throws IOException;

  void delete(String key) throws IOException;

  /** Up to {@code max} objects under {@code prefix}. */
  List<Listed> list(String prefix, int max) throws IOException;
}
