package io.symbolicate.connectors.s3;

import java.net.URI;
import java.time.Duration;
import org.apache.kafka.common.config.types.Password;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** Builds the S3 client of a task from its settings; the secret goes to the SDK only. */
final class S3Clients {
  private S3Clients() {}

  static S3Client create(S3SourceConfig c) {
    Password id = c.getPassword(S3SourceConfig.ACCESS_KEY);
    Password secret = c.getPassword(S3SourceConfig.SECRET_KEY);
    AwsCredentialsProvider credentials =
        id == null
            ? DefaultCredentialsProvider.builder().build()
            : StaticCredentialsProvider.create(
                AwsBasicCredentials.create(id.value(), secret.value()));
    var b =
        S3Client.builder()
            .region(Region.of(c.getString(S3SourceConfig.REGION)))
            .forcePathStyle(c.getBoolean(S3SourceConfig.PATH_STYLE))
            .credentialsProvider(credentials)
            .httpClient(
                UrlConnectionHttpClient.builder()
                    .connectionTimeout(Duration.ofSeconds(5))
                    .socketTimeout(Duration.ofSeconds(30))
                    .build())
            // the task retries with its own back-off and stays responsive to stop(): few SDK
            // retries
            .overrideConfiguration(
                ClientOverrideConfiguration.builder().retryStrategy(RetryMode.STANDARD).build());
    String endpoint = c.getString(S3SourceConfig.ENDPOINT);
    if (!endpoint.isEmpty()) {
      b.endpointOverride(URI.create(endpoint));
    }
    return b.build();
  }
}
