package io.symbolicate.api.upload;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Objects by key: the symbol bucket or directory the loader reads, and the staging area of the
 * upload parts (the same bucket under a prefix, or another), so that parts sent to different
 * instances behind a load balancer meet.
 */
public interface UploadStore {
  /** An object's key and when it was last written (what the store says; S3: whole seconds). */
  record StoredObject(String key, long lastModifiedMillis) {}

  /** Writes (or replaces) an object from a file; a reader never sees half of it. */
  void put(String key, Path file) throws IOException;

  /** Opens an object, or returns null when there is none. */
  InputStream open(String key) throws IOException;

  /**
   * Creates an empty object at {@code key} unless one exists, atomically: of requests that race
   * for one key, exactly one gets true (the directory: a new file; S3: a conditional put).
   */
  boolean claim(String key) throws IOException;

  /** Removes an object; absent is fine. */
  void delete(String key) throws IOException;

  /** The objects whose keys start with {@code prefix}, at most {@code max}, in key order. */
  List<StoredObject> list(String prefix, int max) throws IOException;

  /**
   * The distinct "folders" right under {@code prefix} (its keys up to and including their next
   * {@code /}), at most {@code max}.
   */
  List<String> folders(String prefix, int max) throws IOException;

  /**
   * The bytes of the objects whose keys start with {@code prefix}, leaving out those under any
   * of {@code excluded}; -1 when this store does not count (S3: it would list every object of
   * the scope on each upload). The per-scope quota ({@code upload.dir.max.scope.bytes}) uses it.
   */
  default long usage(String prefix, Set<String> excluded) throws IOException {
    return -1;
  }

  /** An object's bytes, or -1 when there is none (or the store does not count). */
  default long size(String key) throws IOException {
    return -1;
  }

  /** Where the store is, for logs (never credentials). */
  String describe();
}
