package io.symbolicate.app.config;

import io.symbolicate.schema.topic.TopicNames;
import io.symbolicate.signatures.SignatureListException;
import io.symbolicate.signatures.SignatureLists;
import io.symbolicate.topology.config.InputFormat;
import io.symbolicate.topology.config.TopologyConfig;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The application's configuration: defaults, overridden by a properties file, overridden by
 * command-line settings. Every key, its default and its doc is a {@link ConfigKeys} constant.
 */
public final class AppConfig {
  /** Keys with this prefix are passed to Kafka Streams (and its clients) without the prefix. */
  public static final String STREAMS_PREFIX = "streams.";

  /** Every key's default, in documentation order ({@link ConfigKeys}). */
  public static final Map<String, String> DEFAULTS;

  static {
    Map<String, String> d = new LinkedHashMap<>();
    for (ConfigKey k : ConfigKeys.ALL) {
      d.put(k.name(), k.defaultValue());
    }
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
    for (String src : cfg.get(ConfigKeys.SYMBOLS_SOURCES).split(",")) {
      if (!List.of("s3", "dir", "http", "").contains(src.trim().toLowerCase(Locale.ROOT))) {
        throw new ConfigException(
            "unknown symbol source '"
                + src.trim()
                + "' in symbols.sources (expected s3, dir, http)");
      }
    }
    return cfg;
  }

  public AppConfig set(String key, String value) {
    if (!DEFAULTS.containsKey(key) && !key.startsWith(STREAMS_PREFIX)) {
      throw new ConfigException(
          "unknown configuration key '"
              + key
              + "' (known: "
              + String.join(", ", DEFAULTS.keySet())
              + ", or "
              + STREAMS_PREFIX
              + "<Kafka Streams setting>)");
    }
    values.put(key, value);
    return this;
  }

  public String get(String key) {
    return values.get(key);
  }

  public String get(ConfigKey key) {
    return get(key.name());
  }

  public int getInt(ConfigKey key) {
    return getInt(key.name());
  }

  public long getLong(ConfigKey key) {
    return getLong(key.name());
  }

  public double getPositiveDouble(ConfigKey key) {
    return getPositiveDouble(key.name());
  }

  public Duration getMillis(ConfigKey key) {
    return getMillis(key.name());
  }

  public boolean getBoolean(ConfigKey key) {
    return getBoolean(key.name());
  }

  public AppConfig set(ConfigKey key, String value) {
    return set(key.name(), value);
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

  public Duration getMillis(String key) {
    long ms = getLong(key);
    if (ms < 0) {
      throw new ConfigException(key + " must not be negative");
    }
    return Duration.ofMillis(ms);
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
    int port = getInt(ConfigKeys.METRICS_PORT);
    if (port < -1 || port > 65535) {
      throw new ConfigException("metrics.port must be -1 (off) or a port 0..65535, got " + port);
    }
    return port;
  }

  public String bootstrapServers() {
    String b = get(ConfigKeys.BOOTSTRAP_SERVERS);
    if (b == null || b.isBlank()) {
      throw new ConfigException(
          "bootstrap.servers is not set (use --bootstrap-servers, "
              + "--set bootstrap.servers=HOST:PORT, or a config file)");
    }
    return b;
  }

  public TopologyConfig topologyConfig() {
    InputFormat format;
    try {
      format = InputFormat.valueOf(get(ConfigKeys.INPUT_FORMAT).trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new ConfigException(
          "input.format must be avro, json or auto, got '" + get(ConfigKeys.INPUT_FORMAT) + "'");
    }
    int maxBytes = getInt(ConfigKeys.MAX_EVENT_BYTES);
    int maxFrames = getInt(ConfigKeys.MAX_FRAMES_PER_EVENT);
    int maxModules = getInt(ConfigKeys.MAX_MODULES_PER_EVENT);
    if (maxBytes <= 0 || maxFrames <= 0 || maxModules <= 0) {
      throw new ConfigException(
          "max.event.bytes, max.frames.per.event and max.modules.per.event must be positive");
    }
    return new TopologyConfig(
        topicNames(),
        format,
        maxBytes,
        maxFrames,
        new TopologyConfig.Parking(
            getMillis(ConfigKeys.PARK_TIMEOUT_MS),
            getMillis(ConfigKeys.PARK_CHECK_INTERVAL_MS),
            getInt(ConfigKeys.PARK_MAX_EVENTS),
            getMillis(ConfigKeys.PARK_REQUEST_RETRY_MS),
            getMillis(ConfigKeys.PARK_TOUCH_INTERVAL_MS),
            maxModules),
        // the producers' max.request.size and the created output topic's max.message.bytes
        TopologyConfig.outputLimit(getInt(ConfigKeys.DLQ_MAX_MESSAGE_BYTES)),
        signatureLists());
  }

  /** The crash signatures' frame lists: {@code signatures.lists.dir}, or the built-in ones. */
  public SignatureLists signatureLists() {
    String dir = get(ConfigKeys.SIGNATURES_LISTS_DIR);
    if (dir == null || dir.isBlank()) {
      return SignatureLists.defaults();
    }
    try {
      return SignatureLists.load(Path.of(dir.trim()));
    } catch (SignatureListException e) {
      throw new ConfigException(ConfigKeys.SIGNATURES_LISTS_DIR.name() + ": " + e.getMessage());
    } catch (InvalidPathException e) {
      throw new ConfigException(ConfigKeys.SIGNATURES_LISTS_DIR.name() + ": not a path: " + dir);
    }
  }

  public TopicNames topicNames() {
    return new TopicNames(
        get(ConfigKeys.TOPIC_RAW),
        get(ConfigKeys.TOPIC_SYMBOLICATED),
        get(ConfigKeys.TOPIC_DLQ),
        get(ConfigKeys.TOPIC_REQUESTS),
        get(ConfigKeys.TOPIC_TABLES),
        get(ConfigKeys.TOPIC_INDEX),
        get(ConfigKeys.TOPIC_UPLOADS),
        get(ConfigKeys.TOPIC_MISSING));
  }

  /** Settings passed through to Kafka Streams, prefix removed. */
  public Map<String, String> streamsOverrides() {
    Map<String, String> out = new TreeMap<>();
    values.forEach(
        (k, v) -> {
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
