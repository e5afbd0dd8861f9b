package io.symbolicate.connectors.s3;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The keys a task announced or listed last, each with its ETag, at most {@code capacity} of them:
 * the least recently listed goes first. Not thread-safe (one task thread).
 */
final class SeenKeys {
  private final int capacity;
  private final LinkedHashMap<String, String> etags;

  SeenKeys(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1");
    }
    this.capacity = capacity;
    this.etags =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > SeenKeys.this.capacity;
          }
        };
  }

  /** The ETag remembered for a key (refreshing its place), or null. */
  String etag(String key) {
    return etags.get(key);
  }

  void remember(String key, String etag) {
    etags.put(key, etag);
  }

  int size() {
    return etags.size();
  }
}
