package io.symbolicate.app.runtime;

import io.symbolicate.symbolication.minidump.AttachmentFetcher;
import io.symbolicate.symbolication.minidump.AttachmentUnavailableException;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Fetches the dumps events carry by reference from S3, on threads of its own so that no stream
 * thread waits (docs/minidump.md, "Dumps in the stream"). A missing object, a refused request or
 * an object over the limit is a permanent failure; a connection error or a server error is tried
 * again by the stream.
 */
final class S3DumpFetcher implements AttachmentFetcher, AutoCloseable {
  private final S3Client client;
  private final String defaultBucket;
  private final ExecutorService threads;

  S3DumpFetcher(S3Client client, String defaultBucket, int threads) {
    this.client = client;
    this.defaultBucket = defaultBucket;
    AtomicInteger n = new AtomicInteger();
    this.threads =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "dump-fetch-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  @Override
  public CompletableFuture<byte[]> fetch(String bucket, String key, long maxBytes) {
    String b = bucket != null ? bucket : defaultBucket;
    if (b == null || b.isEmpty()) {
      return CompletableFuture.failedFuture(
          new AttachmentUnavailableException(
              true, "the reference names no bucket and minidump.s3.bucket is not set"));
    }
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return get(b, key, maxBytes);
          } catch (AttachmentUnavailableException e) {
            throw new CompletionException(e);
          }
        },
        threads);
  }

  private byte[] get(String bucket, String key, long maxBytes)
      throws AttachmentUnavailableException {
    try (ResponseInputStream<GetObjectResponse> in =
        client.getObject(r -> r.bucket(bucket).key(key))) {
      Long length = in.response().contentLength();
      if (length != null && length > maxBytes) {
        throw new AttachmentUnavailableException(
            true, "the object is " + length + " bytes, more than " + maxBytes);
      }
      return readAtMost(in, maxBytes);
    } catch (NoSuchKeyException | NoSuchBucketException e) {
      throw new AttachmentUnavailableException(
          true, "no such object (" + e.awsErrorDetails().errorCode() + ")", e);
    } catch (S3Exception e) {
      int status = e.statusCode();
      boolean permanent = status >= 400 && status < 500 && status != 408 && status != 429;
      throw new AttachmentUnavailableException(
          permanent,
          "S3 answered "
              + status
              + ": "
              + (e.awsErrorDetails() == null ? e.getMessage() : e.awsErrorDetails().errorMessage()),
          e);
    } catch (SdkClientException | IOException e) {
      throw new AttachmentUnavailableException(false, "S3 unreachable: " + e.getMessage(), e);
    }
  }

  private static byte[] readAtMost(InputStream in, long maxBytes)
      throws IOException, AttachmentUnavailableException {
    byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
    if (bytes.length > maxBytes) {
      throw new AttachmentUnavailableException(
          true, "the object is more than " + maxBytes + " bytes");
    }
    return bytes;
  }

  @Override
  public void close() {
    threads.shutdownNow();
    client.close();
  }
}
