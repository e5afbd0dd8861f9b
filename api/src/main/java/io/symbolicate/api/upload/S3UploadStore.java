package io.symbolicate.api.upload;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * An {@link UploadStore} in an S3 bucket under a prefix: the symbol bucket (the loader's layout
 * under {@code symbols.s3.prefix}) or the staging area of the parts. S3 errors become
 * {@link IOException}s (a 500 to the client, the cause in the log).
 */
public final class S3UploadStore implements UploadStore {
  /** Tries of a conditional put that S3 answers 409 (another is in progress). */
  static final int CLAIM_ATTEMPTS = 10;

  private final S3Client client;
  private final String bucket;
  private final String prefix;

  /** @param prefix put before every key ({@code ""}, or ending in {@code /}) */
  public S3UploadStore(S3Client client, String bucket, String prefix) {
    this.client = client;
    this.bucket = bucket;
    String p = prefix == null ? "" : prefix;
    this.prefix = p.isEmpty() || p.endsWith("/") ? p : p + "/";
  }

  private IOException failed(String what, String key, SdkException e) {
    return new IOException(
        "S3 " + what + " of s3://" + bucket + "/" + prefix + key + " failed: " + e.getMessage(), e);
  }

  @Override
  public void put(String key, Path file) throws IOException {
    try {
      client.putObject(b -> b.bucket(bucket).key(prefix + key), RequestBody.fromFile(file));
    } catch (SdkException e) {
      throw failed("put", key, e);
    }
  }

  @Override
  public boolean claim(String key) throws IOException {
    // the claim holds a token of this attempt: a put that succeeded on the server while its
    // client saw an error (the SDK retried it into a 412, or S3 answered 409 to both of two
    // concurrent puts and one had landed) is still recognised as this request's own claim, so
    // no claim is left that nobody holds
    String token = UUID.randomUUID().toString();
    for (int attempt = 1; ; attempt++) {
      try {
        client.putObject(
            b -> b.bucket(bucket).key(prefix + key).ifNoneMatch("*"),
            RequestBody.fromString(token));
        return true;
      } catch (S3Exception e) {
        if (e.statusCode() == 412) {
          return token.equals(holder(key)); // there is one: ours, or another request's
        }
        if (e.statusCode() == 409 && attempt < CLAIM_ATTEMPTS) {
          // a concurrent conditional put of the same key is in progress: S3 asks to retry
          sleep(attempt * 20L);
          continue;
        }
        throw failed("conditional put", key, e);
      } catch (SdkException e) {
        throw failed("conditional put", key, e);
      }
    }
  }

  /** The token a claim holds, or null when it is gone (or unreadable as one). */
  private String holder(String key) throws IOException {
    try (InputStream in = open(key)) {
      return in == null ? null : new String(in.readNBytes(64), StandardCharsets.US_ASCII);
    }
  }

  private static void sleep(long millis) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  @Override
  public InputStream open(String key) throws IOException {
    try {
      return client.getObject(b -> b.bucket(bucket).key(prefix + key));
    } catch (NoSuchKeyException e) {
      return null;
    } catch (S3Exception e) {
      if (e.statusCode() == 404) {
        return null;
      }
      throw failed("get", key, e);
    } catch (SdkException e) {
      throw failed("get", key, e);
    }
  }

  @Override
  public void delete(String key) throws IOException {
    try {
      client.deleteObject(b -> b.bucket(bucket).key(prefix + key));
    } catch (SdkException e) {
      throw failed("delete", key, e);
    }
  }

  @Override
  public List<StoredObject> list(String keyPrefix, int max) throws IOException {
    List<StoredObject> out = new ArrayList<>();
    String token = null;
    try {
      do {
        String t = token;
        ListObjectsV2Response r =
            client.listObjectsV2(
                b ->
                    b.bucket(bucket)
                        .prefix(prefix + keyPrefix)
                        .maxKeys(Math.min(1000, max - out.size()))
                        .continuationToken(t));
        for (S3Object o : r.contents()) {
          out.add(
              new StoredObject(
                  o.key().substring(prefix.length()), o.lastModified().toEpochMilli()));
        }
        token = Boolean.TRUE.equals(r.isTruncated()) ? r.nextContinuationToken() : null;
      } while (token != null && out.size() < max);
    } catch (SdkException e) {
      throw failed("list", keyPrefix, e);
    }
    return out;
  }

  @Override
  public List<String> folders(String keyPrefix, int max) throws IOException {
    List<String> out = new ArrayList<>();
    String token = null;
    try {
      do {
        String t = token;
        ListObjectsV2Response r =
            client.listObjectsV2(
                b ->
                    b.bucket(bucket)
                        .prefix(prefix + keyPrefix)
                        .delimiter("/")
                        .maxKeys(Math.min(1000, max - out.size()))
                        .continuationToken(t));
        for (CommonPrefix p : r.commonPrefixes()) {
          out.add(p.prefix().substring(prefix.length()));
        }
        token = Boolean.TRUE.equals(r.isTruncated()) ? r.nextContinuationToken() : null;
      } while (token != null && out.size() < max);
    } catch (SdkException e) {
      throw failed("list", keyPrefix, e);
    }
    return out;
  }

  @Override
  public String describe() {
    return "s3://" + bucket + "/" + prefix;
  }
}
