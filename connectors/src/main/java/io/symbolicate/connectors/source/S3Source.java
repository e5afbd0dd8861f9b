package io.symbolicate.connectors.source;

import java.net.URI;
import java.time.Duration;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** Debug files in an S3 bucket (AWS or any S3-compatible store), under an optional prefix. */
public final class S3Source implements SymbolSource {

  /**
   * Connection settings. Credentials come from the default provider chain unless given; they
   * are never logged or part of {@link #name()}.
   */
  public record Settings(
      String bucket,
      String prefix,
      String region,
      URI endpoint,
      boolean pathStyle,
      Duration timeout) {
    public Settings {
      if (bucket == null || bucket.isBlank()) {
        throw new IllegalArgumentException("S3 bucket is not set");
      }
      prefix = prefix == null ? "" : prefix;
      if (!prefix.isEmpty() && !prefix.endsWith("/")) {
        prefix = prefix + "/";
      }
      region = region == null || region.isBlank() ? "us-east-1" : region;
      timeout = timeout == null ? Duration.ofSeconds(30) : timeout;
    }
  }

  private final S3Client client;
  private final boolean ownsClient;
  private final String bucket;
  private final String prefix;

  public S3Source(S3Client client, String bucket, String prefix) {
    this(client, false, bucket, prefix);
  }

  private S3Source(S3Client client, boolean ownsClient, String bucket, String prefix) {
    this.client = client;
    this.ownsClient = ownsClient;
    this.bucket = bucket;
    this.prefix = prefix == null ? "" : prefix;
  }

  public static S3Source create(Settings s) {
    return create(s, DefaultCredentialsProvider.builder().build());
  }

  public static S3Source create(Settings s, AwsCredentialsProvider credentials) {
    return new S3Source(client(s, credentials), true, s.bucket(), s.prefix());
  }

  /** A client with these settings (the upload routes write through one), credentials from the default chain. */
  public static S3Client client(Settings s) {
    return client(s, DefaultCredentialsProvider.builder().build());
  }

  static S3Client client(Settings s, AwsCredentialsProvider credentials) {
    var b =
        S3Client.builder()
            .region(Region.of(s.region()))
            .forcePathStyle(s.pathStyle())
            .credentialsProvider(credentials)
            .httpClient(
                UrlConnectionHttpClient.builder()
                    .connectionTimeout(Duration.ofSeconds(5))
                    .socketTimeout(s.timeout())
                    .build())
            .overrideConfiguration(
                o ->
                    o.apiCallTimeout(s.timeout().multipliedBy(2))
                        .apiCallAttemptTimeout(s.timeout()));
    if (s.endpoint() != null) {
      b.endpointOverride(s.endpoint());
    }
    return b.build();
  }

  @Override
  public String type() {
    return "s3";
  }

  @Override
  public String name() {
    return "s3://" + bucket + "/" + prefix;
  }

  @Override
  public FetchResult fetch(String key) {
    String full = prefix + key;
    String location = "s3://" + bucket + "/" + full;
    try {
      ResponseInputStream<GetObjectResponse> in = client.getObject(b -> b.bucket(bucket).key(full));
      Long len = in.response().contentLength();
      return new FetchResult.Found(location, len == null ? -1 : len, in);
    } catch (NoSuchKeyException e) {
      return new FetchResult.NotFound(location);
    } catch (NoSuchBucketException e) {
      return new FetchResult.Failed(location, "bucket " + bucket + " does not exist");
    } catch (S3Exception e) {
      int status = e.statusCode();
      if (status == 404) {
        return new FetchResult.NotFound(location);
      }
      String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
      if (status == 403 && deniedMeansMissing(code)) {
        // S3 answers 403 for missing keys when the caller may not list the bucket
        return new FetchResult.NotFound(location + " (access denied)");
      }
      return new FetchResult.Failed(location, "S3 answered " + status + ": " + code);
    } catch (SdkClientException e) {
      return new FetchResult.Failed(location, "S3 unreachable: " + e.getMessage());
    }
  }

  /**
   * Whether a 403 with this error code is S3's answer for a key the caller may not see (a
   * missing one, when it may not list the bucket). Other 403s are the credentials' or the
   * clock's fault (InvalidAccessKeyId, SignatureDoesNotMatch, RequestTimeTooSkewed,
   * ExpiredToken...): cached as missing, they would hide every module for an hour.
   */
  static boolean deniedMeansMissing(String errorCode) {
    return errorCode == null || errorCode.isEmpty() || "AccessDenied".equals(errorCode);
  }

  @Override
  public void close() {
    if (ownsClient) {
      client.close();
    }
  }
}
