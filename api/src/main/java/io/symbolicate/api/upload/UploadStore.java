package io.symbolicate.api.upload;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/**
 * Where upload parts and assembled files go: the symbol bucket or directory the loader reads, so
 * parts sent to different instances behind a load balancer meet.
 */
public interface UploadStore {
  /** Writes (or replaces) an object from a file. */
  void put(String key, Path file) throws IOException;

  /** Opens an object, or returns null when there is none. */
  InputStream open(String key) throws IOException;

  boolean exists(String key) throws IOException;

  /** Removes an object; absent is fine. */
  void delete(String key) throws IOException;
}
