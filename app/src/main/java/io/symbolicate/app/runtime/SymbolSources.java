package io.symbolicate.app.runtime;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.connectors.source.FileSystemSource;
import io.symbolicate.connectors.source.HttpSource;
import io.symbolicate.connectors.source.S3Source;
import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.connectors.source.SymbolSource;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Builds the configured symbol sources, in the priority order of {@code symbols.sources}. */
public final class SymbolSources {
  private SymbolSources() {}

  /** The configured sources, or null when none is configured. */
  public static SourceChain fromConfig(AppConfig cfg) {
    List<SymbolSource> list = new ArrayList<>();
    var timeout = cfg.getMillis(ConfigKeys.SYMBOLS_FETCH_TIMEOUT_MS);
    for (String name : cfg.get(ConfigKeys.SYMBOLS_SOURCES).split(",")) {
      switch (name.trim().toLowerCase(Locale.ROOT)) {
        case "s3" -> {
          String bucket = cfg.get(ConfigKeys.SYMBOLS_S3_BUCKET);
          if (!bucket.isBlank()) {
            String endpoint = cfg.get(ConfigKeys.SYMBOLS_S3_ENDPOINT);
            list.add(
                S3Source.create(
                    new S3Source.Settings(
                        bucket,
                        cfg.get(ConfigKeys.SYMBOLS_S3_PREFIX),
                        cfg.get(ConfigKeys.SYMBOLS_S3_REGION),
                        endpoint.isBlank() ? null : URI.create(endpoint),
                        cfg.getBoolean(ConfigKeys.SYMBOLS_S3_PATH_STYLE),
                        timeout)));
          }
        }
        case "dir" -> {
          String dir = cfg.get(ConfigKeys.SYMBOLS_DIR);
          if (!dir.isBlank()) {
            if (!Files.isDirectory(Path.of(dir))) {
              throw new AppConfig.ConfigException("symbols.dir is not a directory: " + dir);
            }
            list.add(new FileSystemSource(Path.of(dir)));
          }
        }
        case "http" -> {
          String url = cfg.get(ConfigKeys.SYMBOLS_HTTP_URL);
          if (!url.isBlank()) {
            URI uri = URI.create(url);
            if (uri.getScheme() == null || !uri.getScheme().startsWith("http")) {
              throw new AppConfig.ConfigException(
                  "symbols.http.url must be an http(s) URL: " + url);
            }
            list.add(new HttpSource(uri, timeout));
          }
        }
        case "" -> {}
        default ->
            throw new AppConfig.ConfigException(
                "unknown symbol source '"
                    + name.trim()
                    + "' in symbols.sources (expected s3, dir, http)");
      }
    }
    return list.isEmpty() ? null : new SourceChain(list);
  }
}
