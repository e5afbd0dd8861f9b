package io.symbolicate.app.runtime;

import io.symbolicate.app.config.AppConfig;

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
    var timeout = cfg.getMillis("symbols.fetch.timeout.ms");
    for (String name : cfg.get("symbols.sources").split(",")) {
      switch (name.trim().toLowerCase(Locale.ROOT)) {
        case "s3" -> {
          String bucket = cfg.get("symbols.s3.bucket");
          if (!bucket.isBlank()) {
            String endpoint = cfg.get("symbols.s3.endpoint");
            list.add(S3Source.create(new S3Source.Settings(bucket, cfg.get("symbols.s3.prefix"),
                cfg.get("symbols.s3.region"), endpoint.isBlank() ? null : URI.create(endpoint),
                cfg.getBoolean("symbols.s3.path-style"), timeout)));
          }
        }
        case "dir" -> {
          String dir = cfg.get("symbols.dir");
          if (!dir.isBlank()) {
            if (!Files.isDirectory(Path.of(dir))) {
              throw new AppConfig.ConfigException("symbols.dir is not a directory: " + dir);
            }
            list.add(new FileSystemSource(Path.of(dir)));
          }
        }
        case "http" -> {
          String url = cfg.get("symbols.http.url");
          if (!url.isBlank()) {
            URI uri = URI.create(url);
            if (uri.getScheme() == null || !uri.getScheme().startsWith("http")) {
              throw new AppConfig.ConfigException("symbols.http.url must be an http(s) URL: " + url);
            }
            list.add(new HttpSource(uri, timeout));
          }
        }
        case "" -> { }
        default -> throw new AppConfig.ConfigException("unknown symbol source '" + name.trim()
            + "' in symbols.sources (expected s3, dir, http)");
      }
    }
    return list.isEmpty() ? null : new SourceChain(list);
  }
}
