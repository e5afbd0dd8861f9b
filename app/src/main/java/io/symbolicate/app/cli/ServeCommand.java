package io.symbolicate.app.cli;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.app.runtime.ApiRuntime;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code symbolicator serve}: the HTTP symbolication API without Kafka. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = {
      "Serve the HTTP symbolication API without Kafka:",
      "Mozilla's POST /symbolicate/v5, /symbolicate/v4 and /; Symbolicator's",
      "POST /symbolicate-js, /symbolicate-jvm, /applecrashreport and /minidump; GET /health and /metrics.",
      "Symbols come from the configured sources (the same symbols.* keys as 'run')",
      "and are cached as compact tables on local disk (http.cache.dir).",
      "Stops cleanly on Ctrl-C / SIGTERM."
    })
final class ServeCommand implements Callable<Integer> {
  @Option(
      names = {"-c", "--config"},
      paramLabel = "FILE",
      description = "Properties file (see README: Configuration).")
  Path configFile;

  @Option(
      names = "--set",
      paramLabel = "KEY=VALUE",
      description = "Override one setting; repeatable.")
  Map<String, String> overrides = new LinkedHashMap<>();

  @Option(
      names = "--symbols-dir",
      paramLabel = "DIR",
      description = "Local symbols directory (symbols.dir).")
  Path symbolsDir;

  @Option(
      names = "--s3-bucket",
      paramLabel = "BUCKET",
      description = "S3 bucket of debug files (symbols.s3.bucket).")
  String s3Bucket;

  @Option(
      names = "--s3-prefix",
      paramLabel = "PREFIX",
      description = "Key prefix in the bucket (symbols.s3.prefix).")
  String s3Prefix;

  @Option(
      names = "--s3-endpoint",
      paramLabel = "URL",
      description = "S3-compatible endpoint (symbols.s3.endpoint).")
  String s3Endpoint;

  @Option(
      names = "--s3-region",
      paramLabel = "REGION",
      description = "S3 region (symbols.s3.region).")
  String s3Region;

  @Option(
      names = "--s3-path-style",
      description = "Path-style S3 addressing (symbols.s3.path-style).")
  boolean s3PathStyle;

  @Option(
      names = "--symbols-url",
      paramLabel = "URL",
      description = "HTTP symbol server (symbols.http.url).")
  String symbolsUrl;

  @Option(
      names = "--host",
      paramLabel = "HOST",
      description = "Address to bind (http.host, default 127.0.0.1).")
  String host;

  @Option(
      names = {"-p", "--port"},
      paramLabel = "PORT",
      description = "Port (http.port, default 8000; 0: any free port).")
  Integer port;

  @Option(
      names = "--cache-dir",
      paramLabel = "DIR",
      description = "Local table cache (http.cache.dir).")
  Path cacheDir;

  @Override
  public Integer call() throws Exception {
    Map<String, String> all = new LinkedHashMap<>(overrides);
    put(all, ConfigKeys.SYMBOLS_DIR.name(), symbolsDir == null ? null : symbolsDir.toString());
    put(all, ConfigKeys.SYMBOLS_S3_BUCKET.name(), s3Bucket);
    put(all, ConfigKeys.SYMBOLS_S3_PREFIX.name(), s3Prefix);
    put(all, ConfigKeys.SYMBOLS_S3_ENDPOINT.name(), s3Endpoint);
    put(all, ConfigKeys.SYMBOLS_S3_REGION.name(), s3Region);
    if (s3PathStyle) {
      all.put(ConfigKeys.SYMBOLS_S3_PATH_STYLE.name(), "true");
    }
    put(all, ConfigKeys.SYMBOLS_HTTP_URL.name(), symbolsUrl);
    put(all, ConfigKeys.HTTP_HOST.name(), host);
    put(all, ConfigKeys.HTTP_PORT.name(), port == null ? null : port.toString());
    put(all, ConfigKeys.HTTP_CACHE_DIR.name(), cacheDir == null ? null : cacheDir.toString());
    ApiRuntime.Running api;
    try {
      AppConfig cfg = AppConfig.load(configFile, all);
      if (cfg.get(ConfigKeys.SYMBOLS_DIR).isBlank()
          && cfg.get(ConfigKeys.SYMBOLS_S3_BUCKET).isBlank()
          && cfg.get(ConfigKeys.SYMBOLS_HTTP_URL).isBlank()) {
        throw new UserException(
            "no symbol source: give --symbols-dir DIR, --s3-bucket BUCKET or --symbols-url URL");
      }
      api = ApiRuntime.serve(cfg);
    } catch (AppConfig.ConfigException e) {
      throw new UserException(e.getMessage());
    } catch (IOException | IllegalStateException e) {
      throw new UserException(e.getMessage(), 3, e);
    }
    CountDownLatch stop = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  api.close();
                  stop.countDown();
                },
                "symbolicator-serve-shutdown"));
    // the first line on stdout says where to send requests (the load test reads it)
    System.out.println("symbolicator: serving " + api.server().uri());
    System.out.flush();
    stop.await();
    return 0;
  }

  private static void put(Map<String, String> m, String key, String value) {
    if (value != null) {
      m.put(key, value);
    }
  }
}
