package io.symbolicate.connectors.source;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The three outcomes of fetching a debug file, which the caching rules treat differently:
 * found; permanently missing (negative-cached with a TTL); transiently failed (retried, never
 * cached as missing).
 */
public sealed interface FetchResult {

  /**
   * The object exists; the caller reads and closes the stream. {@code companion} is another file
   * a layout found beside it that the converter may use (a sourcemap's minified file, whose
   * function scopes name frames), or null. {@code companionFile} is a file too large for the
   * heap that the layout found beside it and spooled to a temporary directory of its own (a
   * native module's executable beside its debug file), or null; it and its directory are deleted
   * on close.
   */
  record Found(String location, long size, InputStream body, byte[] companion, Path companionFile)
      implements FetchResult, AutoCloseable {
    public Found(String location, long size, InputStream body) {
      this(location, size, body, null, null);
    }

    public Found(String location, long size, InputStream body, byte[] companion) {
      this(location, size, body, companion, null);
    }

    /** The same object with a companion file. */
    public Found withCompanion(byte[] file) {
      return new Found(location, size, body, file, companionFile);
    }

    /** The same object with a spooled companion file (deleted, with its directory, on close). */
    public Found withCompanionFile(Path file) {
      return new Found(location, size, body, companion, file);
    }

    @Override
    public void close() throws IOException {
      try {
        body.close();
      } finally {
        if (companionFile != null) {
          Files.deleteIfExists(companionFile);
          Path dir = companionFile.getParent();
          try {
            if (dir != null) {
              Files.deleteIfExists(dir);
            }
          } catch (DirectoryNotEmptyException e) {
            // not only ours: left as it is
          }
        }
      }
    }
  }

  /** No source has the object. */
  record NotFound(String tried) implements FetchResult {}

  /** A source could not answer (5xx, timeout, reset, throttling): try again later. */
  record Failed(String location, String reason) implements FetchResult {}
}
