package io.symbolicate.testkit;

import java.net.URI;
import java.nio.file.Path;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A real S3-compatible server (s3proxy) in this JVM on a free loopback port, with SigV4
 * authentication, backed by memory or by a directory. Reach it with {@link #client()}.
 */
public final class EmbeddedS3 implements AutoCloseable {
  public static final String ACCESS_KEY = "embedded-access";
  public static final String SECRET_KEY = "embedded-secret";

  private final S3Proxy proxy;
  private final URI endpoint;

  private EmbeddedS3(S3Proxy proxy) {
    this.proxy = proxy;
    this.endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
  }

  /** An in-memory server; objects vanish on close. */
  public static EmbeddedS3 startInMemory() {
    return start(new TransientNio2BlobStore());
  }

  /** A server whose buckets are sub-directories of {@code baseDir}. */
  public static EmbeddedS3 startOnDirectory(Path baseDir) {
    return startOnDirectory(baseDir, 0);
  }

  /** On a given port (0: any free one), e.g. to restart a stopped server where clients expect it. */
  public static EmbeddedS3 startOnDirectory(Path baseDir, int port) {
    return start(new FilesystemNio2BlobStore(baseDir.toAbsolutePath().toString()), port);
  }

  private static EmbeddedS3 start(BlobStore store) {
    return start(store, 0);
  }

  private static EmbeddedS3 start(BlobStore store, int port) {
    try {
      S3Proxy proxy =
          S3Proxy.builder()
              .blobStore(store)
              .endpoint(URI.create("http://127.0.0.1:" + port))
              .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
              .stopTimeout(0)
              .build();
      proxy.start();
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (!"STARTED".equals(proxy.getState())) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("s3proxy did not start within 30 s: " + proxy.getState());
        }
        Thread.sleep(5);
      }
      return new EmbeddedS3(proxy);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (Exception e) {
      throw new IllegalStateException("could not start the embedded S3 server: " + e, e);
    }
  }

  public int port() {
    return endpoint.getPort();
  }

  public URI endpoint() {
    return endpoint;
  }

  /** A client for this server: endpoint override, path-style, static dummy credentials. */
  public S3Client client() {
    return S3Client.builder()
        .endpointOverride(endpoint)
        .region(Region.US_EAST_1)
        .forcePathStyle(true)
        .credentialsProvider(
            StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
        .httpClient(UrlConnectionHttpClient.create())
        .build();
  }

  @Override
  public void close() {
    try {
      proxy.stop();
    } catch (Exception e) {
      throw new IllegalStateException("could not stop the embedded S3 server", e);
    }
  }
}
