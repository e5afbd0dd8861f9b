package io.symbolicate.app.runtime;

import io.symbolicate.api.auth.Action;
import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.api.upload.Announcer;
import io.symbolicate.api.upload.DirectoryUploadStore;
import io.symbolicate.api.upload.S3UploadStore;
import io.symbolicate.api.upload.UploadLimits;
import io.symbolicate.api.upload.UploadService;
import io.symbolicate.api.upload.UploadStore;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.connectors.source.S3Source;
import io.symbolicate.schema.RequestReason;
import io.symbolicate.schema.SymbolRequest;
import io.symbolicate.schema.serde.WireSerdes;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The symbol upload routes from the configuration ({@code upload.*}, {@code api.keys}): the
 * stores they write (the symbol bucket, or {@code symbols.dir}; the parts' staging area), the
 * limits, and how an upload is announced.
 */
final class UploadRuntime {
  /** How long an announcement on {@code symbols.uploads} may take before the upload is a 500. */
  static final long ANNOUNCE_TIMEOUT_MS = 10_000;

  private UploadRuntime() {}

  /** The upload service, or null when {@code upload.enabled} is false. */
  static UploadService service(AppConfig cfg, Announcer announcer) {
    if (!cfg.getBoolean(ConfigKeys.UPLOAD_ENABLED)) {
      return null;
    }
    if (!keys(cfg).anyAllows(Action.UPLOAD)) {
      throw new AppConfig.ConfigException(
          "upload.enabled needs a key with the upload action in api.keys "
              + "(<sha256 hex>=<scope>:upload)");
    }
    UploadLimits limits;
    try {
      limits =
          new UploadLimits(
              cfg.getLong(ConfigKeys.UPLOAD_MAX_PART_BYTES),
              cfg.getInt(ConfigKeys.UPLOAD_MAX_PARTS),
              cfg.getLong(ConfigKeys.SYMBOLS_MAX_FILE_BYTES),
              cfg.getInt(ConfigKeys.UPLOAD_MAX_REQUESTS_IN_FLIGHT),
              cfg.getInt(ConfigKeys.UPLOAD_MAX_FILES_IN_FLIGHT),
              cfg.getMillis(ConfigKeys.UPLOAD_INCOMPLETE_EXPIRY_MS),
              cfg.getInt(ConfigKeys.UPLOAD_MAX_EXPANSION_RATIO));
    } catch (IllegalArgumentException e) {
      throw new AppConfig.ConfigException(e.getMessage());
    }
    long maxScopeBytes = cfg.getLong(ConfigKeys.UPLOAD_DIR_MAX_SCOPE_BYTES);
    if (maxScopeBytes < 0) {
      throw new AppConfig.ConfigException("upload.dir.max.scope.bytes must not be negative");
    }
    String prefix = cfg.get(ConfigKeys.UPLOAD_STAGING_PREFIX);
    String bucket = cfg.get(ConfigKeys.SYMBOLS_S3_BUCKET);
    UploadStore symbols;
    UploadStore staging;
    if (!bucket.isBlank()) {
      String endpoint = cfg.get(ConfigKeys.SYMBOLS_S3_ENDPOINT);
      S3Client client =
          S3Source.client(
              new S3Source.Settings(
                  bucket,
                  cfg.get(ConfigKeys.SYMBOLS_S3_PREFIX),
                  cfg.get(ConfigKeys.SYMBOLS_S3_REGION),
                  endpoint.isBlank() ? null : URI.create(endpoint),
                  cfg.getBoolean(ConfigKeys.SYMBOLS_S3_PATH_STYLE),
                  cfg.getMillis(ConfigKeys.SYMBOLS_FETCH_TIMEOUT_MS)));
      String stagingBucket = cfg.get(ConfigKeys.UPLOAD_STAGING_BUCKET);
      symbols = new S3UploadStore(client, bucket, cfg.get(ConfigKeys.SYMBOLS_S3_PREFIX));
      staging = new S3UploadStore(client, stagingBucket.isBlank() ? bucket : stagingBucket, prefix);
    } else if (!cfg.get(ConfigKeys.SYMBOLS_DIR).isBlank()) {
      Path dir = Path.of(cfg.get(ConfigKeys.SYMBOLS_DIR));
      if (!Files.isDirectory(dir)) {
        throw new AppConfig.ConfigException("symbols.dir is not a directory: " + dir);
      }
      Path stagingDir = dir.resolve(prefix.isBlank() ? "upload-staging" : prefix).normalize();
      symbols = new DirectoryUploadStore(dir);
      staging = new DirectoryUploadStore(stagingDir);
      // the staging folder inside symbols.dir is not the global scope's
      String stagingKey = dir.normalize().relativize(stagingDir).toString().replace('\\', '/');
      return new UploadService(symbols, staging, announcer, limits)
          .withScopeQuota(maxScopeBytes, stagingKey + "/")
          .startSweeper();
    } else {
      throw new AppConfig.ConfigException(
          "upload.enabled needs symbols.s3.bucket or symbols.dir to write to");
    }
    return new UploadService(symbols, staging, announcer, limits).startSweeper();
  }

  static ApiKeys keys(AppConfig cfg) {
    try {
      return ApiKeys.parse(cfg.get(ConfigKeys.API_KEYS));
    } catch (IllegalArgumentException e) {
      throw new AppConfig.ConfigException("api.keys: " + e.getMessage());
    }
  }

  /**
   * {@code run}: the record the S3 connector writes on {@code symbols.uploads} (key: the module
   * reference, value: a {@link SymbolRequest} with reason {@code upload}), acknowledged before
   * the upload is answered.
   */
  static Announcer kafka(Producer<byte[], byte[]> producer, String topic) {
    return module -> {
      SymbolRequest req =
          SymbolRequest.newBuilder()
              .setScope(module.scope())
              .setPlatform(module.platform())
              .setModuleKey(module.key())
              .setReason(RequestReason.upload)
              .setRequestedAt(Instant.now())
              .build();
      producer
          .send(
              new ProducerRecord<>(
                  topic,
                  module.toString().getBytes(StandardCharsets.UTF_8),
                  WireSerdes.symbolRequest().encode(req)))
          .get(ANNOUNCE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    };
  }
}
