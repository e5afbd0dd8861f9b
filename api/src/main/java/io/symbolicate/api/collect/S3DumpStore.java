package io.symbolicate.api.collect;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Dumps in an S3 bucket, streamed: a dump that fits one part is one PUT; a larger one is a
 * multipart upload of {@link #PART_BYTES} parts, each sent before the next is read, so a 100 MB
 * upload holds one part of heap. A failure aborts the multipart upload.
 */
public final class S3DumpStore implements DumpStore {
  /** The part size of multipart uploads (S3's minimum is 5 MiB); also the one buffer a dump holds. */
  public static final int PART_BYTES = 8 << 20;

  /** A dump's buffer starts this large. */
  static final int FIRST_BUFFER = 64 << 10;

  private final S3Client client;
  private final String bucket;
  private final int partBytes;

  public S3DumpStore(S3Client client, String bucket) {
    this(client, bucket, PART_BYTES);
  }

  S3DumpStore(S3Client client, String bucket, int partBytes) {
    this.client = client;
    this.bucket = bucket;
    this.partBytes = partBytes;
  }

  @Override
  public String bucket() {
    return bucket;
  }

  private IOException failed(String what, String key, SdkException e) {
    return new IOException(
        "S3 " + what + " of s3://" + bucket + "/" + key + " failed: " + e.getMessage(), e);
  }

  @Override
  public Stored put(String key, InputStream in) throws IOException {
    MessageDigest sha = sha256();
    // the buffer grows to a whole part only for a dump that large: most are far smaller, and
    // 8 MiB a report was most of the collector's garbage (issue 43: young pauses under attack)
    byte[] part = new byte[Math.min(partBytes, FIRST_BUFFER)];
    int n = readFully(in, part, 0);
    while (n == part.length && part.length < partBytes) {
      part = Arrays.copyOf(part, (int) Math.min(partBytes, 4L * part.length));
      n = readFully(in, part, n);
    }
    sha.update(part, 0, n);
    if (n < part.length) {
      try {
        client.putObject(b -> b.bucket(bucket).key(key), body(part, n));
      } catch (SdkException e) {
        throw failed("put", key, e);
      }
      return new Stored(bucket, key, n, HexFormat.of().formatHex(sha.digest()));
    }
    String upload;
    try {
      upload = client.createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId();
    } catch (SdkException e) {
      throw failed("multipart upload", key, e);
    }
    long size = 0;
    List<CompletedPart> parts = new ArrayList<>();
    try {
      while (n > 0) {
        int number = parts.size() + 1;
        int len = n;
        String etag =
            client
                .uploadPart(
                    b ->
                        b.bucket(bucket)
                            .key(key)
                            .uploadId(upload)
                            .partNumber(number)
                            .contentLength((long) len),
                    body(part, len))
                .eTag();
        parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
        size += n;
        n = readFully(in, part, 0);
        sha.update(part, 0, n);
      }
      client.completeMultipartUpload(
          b -> b.bucket(bucket).key(key).uploadId(upload).multipartUpload(m -> m.parts(parts)));
    } catch (IOException | RuntimeException e) {
      try {
        client.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(upload));
      } catch (SdkException ignored) {
        // the bucket's lifecycle rule for incomplete uploads removes it (docs/api/submit.md)
      }
      if (e instanceof SdkException s) {
        throw failed("multipart upload", key, s);
      }
      throw e;
    }
    return new Stored(bucket, key, size, HexFormat.of().formatHex(sha.digest()));
  }

  /** The bytes, without the copy {@code RequestBody.fromBytes} makes. */
  private static RequestBody body(byte[] b, int len) {
    return RequestBody.fromContentProvider(
        () -> new ByteArrayInputStream(b, 0, len), len, "application/octet-stream");
  }

  /** Fills {@code b} from {@code n} on; returns how much of it is filled (less at the end). */
  private static int readFully(InputStream in, byte[] b, int n) throws IOException {
    while (n < b.length) {
      int r = in.read(b, n, b.length - n);
      if (r < 0) {
        break;
      }
      n += r;
    }
    return n;
  }

  @Override
  public void putSmall(String key, byte[] bytes) throws IOException {
    try {
      client.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(bytes));
    } catch (SdkException e) {
      throw failed("put", key, e);
    }
  }

  @Override
  public byte[] getSmall(String key, int max) throws IOException {
    try (ResponseInputStream<GetObjectResponse> in =
        client.getObject(b -> b.bucket(bucket).key(key))) {
      byte[] b = in.readNBytes(max + 1);
      if (b.length > max) {
        throw new IOException("s3://" + bucket + "/" + key + " is more than " + max + " bytes");
      }
      return b;
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
      client.deleteObject(b -> b.bucket(bucket).key(key));
    } catch (SdkException e) {
      throw failed("delete", key, e);
    }
  }

  @Override
  public List<Listed> list(String prefix, int max) throws IOException {
    List<Listed> out = new ArrayList<>();
    try {
      for (S3Object o :
          client.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix)).contents()) {
        if (out.size() >= max) {
          break;
        }
        out.add(
            new Listed(o.key(), o.lastModified() == null ? 0 : o.lastModified().toEpochMilli()));
      }
    } catch (SdkException e) {
      throw new IOException(
          "S3 listing of s3://" + bucket + "/" + prefix + " failed: " + e.getMessage(), e);
    }
    return out;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
