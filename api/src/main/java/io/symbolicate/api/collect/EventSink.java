package io.symbolicate.api.collect;

import java.util.concurrent.CompletableFuture;

/**
 * Where the collector writes crash events: {@code crash-events.raw} (the app gives a Kafka
 * producer). The future completes once the broker acknowledged the record, or fails.
 */
@FunctionalInterface
public interface EventSink {
  /** Sends one record; a failure to even start the send is a failed future, never an exception. */
  CompletableFuture<Void> send(String key, byte[] value);
}
