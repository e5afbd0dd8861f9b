package io.symbolicate.app.config;

import io.symbolicate.topology.config.InputFormat;
import io.symbolicate.schema.topic.TopicNames;
import io.symbolicate.schema.topic.Topics;
import io.symbolicate.topology.config.TopologyConfig;
import io.symbolicate.connectors.loader.LoaderSettings;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The application's configuration: defaults, overridden by a properties file, overridden by
 * command-line settings. Every key and its default is listed in {@link #DEFAULTS} (and README).
 */
public final class AppConfig {
  /** Keys with this prefix are passed to Kafka Streams (and its clients) without the prefix. */
  public static final String STREAMS_PREFIX = "streams.";

  public static final Map<String, String> DEFAULTS;

  static {
    Map<String, String> d = new LinkedHashMap<>();
    d.put("bootstrap.servers", "");
    d.put("application.id", "symbolicator");
    d.put("topic.raw", Topics.RAW.defaultName());
    d.put("topic.symbolicated", Topics.SYMBOLICATED.defaultName());
    d.put("topic.dlq", Topics.DLQ.defaultName());
    d.put("topic.requests", Topics.SYMBOL_REQUESTS.defaultName());
    d.put("topic.tables", Topics.SYMBOL_TABLES.defaultName());
    d.put("topic.index", Topics.SYMBOL_INDEX.defaultName());
    d.put("topic.uploads", Topics.SYMBOL_UPLOADS.defaultName());
    d.put("topic.missing", Topics.SYMBOLS_MISSING.defaultName());
    d.put("input.format", "auto");
    d.put("max.event.bytes", String.valueOf(TopologyConfig.DEFAULT_MAX_EVENT_BYTES));
    d.put("max.frames.per.event", String.valueOf(TopologyConfig.DEFAULT_MAX_FRAMES));
    d.put("max.modules.per.event", String.valueOf(TopologyConfig.Parking.DEFAULT_MAX_MODULES));
    d.put("processing.guarantee", "exactly_once_v2");
    d.put("num.stream.threads", "1");
    d.put("state.dir", System.getProperty("java.io.tmpdir") + "/symbolicator-state");
    d.put("topics.create", "true");
    d.put("topics.partitions", "3");
    d.put("topics.replication.factor", "-1");
    d.put("dlq.max.message.bytes", String.valueOf(8 << 20));
    d.put("startup.timeout.ms", "15000");
    // symbol sources, in priority order of symbols.sources
    d.put("symbols.sources", "s3,dir,http");
    d.put("symbols.s3.bucket", "");
    d.put("symbols.s3.prefix", "");
    d.put("symbols.s3.region", "us-east-1");
    d.put("symbols.s3.endpoint", "");
    d.put("symbols.s3.path-style", "false");
    d.put("symbols.dir", "");
    d.put("symbols.http.url", "");
    d.put("symbols.fetch.timeout.ms", "30000");
    d.put("symbols.max.file.bytes", String.valueOf(4L << 30));
    // the loader and the caching rules (Symbolicator's defaults)
    d.put("loader.embedded", "true");
    d.put("loader.concurrency", "4");
    d.put("loader.attempts", "4");
    d.put("loader.backoff.ms", "500");
    d.put("loader.cpu.share", String.valueOf(LoaderSettings.DEFAULT_CPU_SHARE));
    d.put("loader.cpu.share.idle", String.valueOf(LoaderSettings.DEFAULT_CPU_SHARE_IDLE));
    d.put("loader.warmup", "true");
    d.put("cache.missing.retry.ms", String.valueOf(3_600_000L));
    d.put("cache.malformed.retry.ms", String.valueOf(86_400_000L));
    d.put("cache.failed.retry.ms", "30000");
    d.put("cache.unused.ttl.ms", String.valueOf(7L * 86_400_000L));
    // decoded pages share the heap with everything else: at most a quarter of it by default
    d.put("page.cache.bytes", String.valueOf(Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 4)));
    // events waiting for symbols
    d.put("park.timeout.ms", "60000");
    d.put("park.check.interval.ms", "250");
    d.put("park.max.events", "100000");
    d.put("park.request.retry.ms", "5000");
    d.put("park.touch.interval.ms", "3600000");
    // the HTTP API (served by `serve`, and by `run` when http.enabled)
    d.put("http.enabled", "false");
    d.put("http.host", "127.0.0.1");
    d.put("http.port", "8000");
    d.put("http.max.in.flight", "16");
    d.put("http.max.in.flight.bytes", "0"); // 0: half the max heap
    d.put("http.max.body.bytes", String.valueOf(5L << 20));
    d.put("http.max.frames", "100000");
    d.put("http.max.modules", String.valueOf(io.symbolicate.api.ApiSettings.DEFAULT_MAX_MODULES));
    d.put("http.request.timeout.ms", "10000");
    d.put("http.retry.after.seconds", "1");
    d.put("http.cors.origins", "*");
    d.put("http.cache.dir", System.getProperty("java.io.tmpdir") + "/symbolicator-api-cache");
    // GET /metrics and /health on their own little server (-1: off)
    d.put("metrics.port", "-1");
    d.put("metrics.host", "127.0.0.1");
    d.put("metrics.refresh.ms", "10000");
    DEFAULTS = Collections.unmodifiableMap(d);
  }

  private final Map<String, String> values;

  private AppConfig(Map<String, String> values) {
    this.values = values;
  }

  public static AppConfig defaults() {
    return new AppConfig(new LinkedHashMap<>(DEFAULTS));
  }

  /** Defaults, then the file (if given), then the overrides; unknown keys are rejected. */
  public static AppConfig load(Path file, Map<String, String> overrides) {
    AppConfig cfg = defaults();
    if (file != null) {
      Properties p = new Properties();
      try (Reader r = Files.newBufferedReader(file)) {
        p.load(r);
      } catch (NoSuchFileException e) {
        throw new ConfigException("config file not found: " + file);
      } catch (IOException e) {
        throw new ConfigException("cannot read config file " + file + ": " + e.getMessage());
      }
      for (String k : p.stringPropertyNames()) {
        cfg.set(k, p.getProperty(k).trim());
      }
    }
    overrides.forEach(cfg::set);
    cfg.topologyConfig(); // validates
    for (String src : cfg.get("symbols.sources").split(",")) {
      if (!List.of("s3", "dir", "http", "").contains(src.trim().toLowerCase(Locale.ROOT))) {
        throw new ConfigException("unknown symbol source '" + src.trim()
            + "' in symbols.sources (expected s3, dir, http)");
      }
    }
    return cfg;
  }

  public AppConfig set(String key, String value) {
    if (!DEFAULTS.containsKey(key) && !key.startsWith(STREAMS_PREFIX)) {
      throw new ConfigException("unknown configuration key '" + key + "' (known: "
          + String.join(", ", DEFAULTS.keySet()) + ", or " + STREAMS_PREFIX + "<Kafka Streams setting>)");
    }
    values.put(key, value);
    return this;
  }

  public String get(String key) {
    return values.get(key);
  }

  public int getInt(String key) {
    String v = values.get(key);
    try {
      return Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new ConfigException(key + " must be an integer, got '" + v + "'");
    }
  }

  public long getLong(String key) {
    String v = values.get(key);
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      throw new ConfigException(key + " must be an integer, got '" + v + "'");
    }
  }

  /** A positive number (e.g. a share of a core). */
  public double getPositiveDouble(String key) {
    String v = values.get(key);
    double d;
    try {
      d = Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      throw new ConfigException(key + " must be a number, got '" + v + "'");
    }
    if (!(d > 0) || Double.isInfinite(d)) {
      throw new ConfigException(key + " must be a positive number, got '" + v + "'");
    }
    return d;
  }

  public java.time.Duration getMillis(String key) {
    long ms = getLong(key);
    if (ms < 0) {
      throw new ConfigException(key + " must not be negative");
    }
    return java.time.Duration.ofMillis(ms);
  }

  public boolean getBoolean(String key) {
    String v = values.get(key).trim().toLowerCase(Locale.ROOT);
    if (!v.equals("true") && !v.equals("false")) {
      throw new ConfigException(key + " must be true or false, got '" + v + "'");
    }
    return v.equals("true");
  }

  /** {@code metrics.port}: -1 (off) or a port, 0 meaning any free one. */
  public int metricsPort() {
    int port = getInt("metrics.port");
    if (port < -1 || port > 65535) {
      throw new ConfigException("metrics.port must be -1 (off) or a port 0..65535, got " + port);
    }
    return port;
  }

  public String bootstrapServers() {
    String b = values.get("bootstrap.servers");
    if (b == null || b.isBlank()) {
      throw new ConfigException("bootstrap.servers is not set (use --bootstrap-servers, "
          + "--set bootstrap.servers=HOST:PORT, or a config file)");
    }
    return b;
  }

  public TopologyConfig topologyConfig() {
    InputFormat format;
    try {
      format = InputFormat.valueOf(values.get("input.format").trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new ConfigException("input.format must be avro, json or auto, got '" + values.get("input.format") + "'");
    }
    int maxBytes = getInt("max.event.bytes");
    int maxFrames = getInt("max.frames.per.event");
    int maxModules = getInt("max.modules.per.event");
    if (maxBytes <= 0 || maxFrames <= 0 || maxModules <= 0) {
      throw new ConfigException("max.event.bytes, max.frames.per.event and max.modules.per.event must be positive");
    }
    return new TopologyConfig(topicNames(), format, maxBytes, maxFrames,
        new TopologyConfig.Parking(getMillis("park.timeout.ms"), getMillis("park.check.interval.ms"),
            getInt("park.max.events"), getMillis("park.request.retry.ms"), getMillis("park.touch.interval.ms"),
            maxModules),
        // the producers' max.request.size and the created output topic's max.message.bytes
        TopologyConfig.outputLimit(getInt("dlq.max.message.bytes")));
  }

  public TopicNames topicNames() {
    return new TopicNames(get("topic.raw"), get("topic.symbolicated"), get("topic.dlq"), get("topic.requests"),
        get("topic.tables"), get("topic.index"), get("topic.uploads"), get("topic.missing"));
  }

  /** Settings passed through to Kafka Streams, prefix removed. */
  public Map<String, String> streamsOverrides() {
    Map<String, String> out = new TreeMap<>();
    values.forEach((k, v) -> {
      if (k.startsWith(STREAMS_PREFIX)) {
        out.put(k.substring(STREAMS_PREFIX.length()), v);
      }
    });
    return out;
  }

  public Map<String, String> asMap() {
    return Collections.unmodifiableMap(values);
  }

  /** A configuration error, reported to the user as one line. */
  public static final class ConfigException extends RuntimeException {
    public ConfigException(String message) {
      super(message);
    }
  }
}
