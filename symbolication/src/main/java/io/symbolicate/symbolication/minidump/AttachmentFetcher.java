package io.symbolicate.symbolication.minidump;

import java.util.concurrent.CompletableFuture;

/**
 * Fetches a file an event carries by reference (a minidump the collector stored in S3), off the
 * stream threads. The stream never waits on it: the event stays parked until the future is done.
 */
@FunctionalInterface
public interface AttachmentFetcher {
  /**
   * Starts fetching {@code bucket}/{@code key} (bucket null: the configured one). The future
   * completes with the object's bytes, or exceptionally with an
   * {@link AttachmentUnavailableException} saying whether trying again can help; an object over
   * {@code maxBytes} is a permanent failure.
   */
  CompletableFuture<byte[]> fetch(String bucket, String key, long maxBytes);

  /** No store configured: every reference is unavailable, for good. */
  AttachmentFetcher NONE =
      (bucket, key, maxBytes) ->
          CompletableFuture.failedFuture(
              new AttachmentUnavailableException(
                  true,
                  "no store for files carried by reference is configured (minidump.s3.bucket or symbols.s3.bucket)"));
}
