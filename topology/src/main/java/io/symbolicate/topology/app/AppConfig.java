package io.symbolicate.topology.app;

import io.symbolicate.topology.InputFormat;
import io.symbolicate.topology.TopicNames;
import io.symbolicate.topology.Topics;
import io.symbolicate.topology.TopologyConfig;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
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
    d.put("topic.raw", Topics.RAW);
    d.put("topic.symbolicated", Topics.SYMBOLICATED);
    d.put("topic.dlq", Topics.DLQ);
    d.put("input.format", "auto");
    d.put("max.event.bytes", String.valueOf(TopologyConfig.DEFAULT_MAX_EVENT_BYTES));
    d.put("max.frames.per.event", String.valueOf(TopologyConfig.DEFAULT_MAX_FRAMES));
    d.put("processing.guarantee", "exactly_once_v2");
    d.put("num.stream.threads", "1");
    d.put("state.dir", System.getProperty("java.io.tmpdir") + "/symbolicator-state");
    d.put("topics.create", "true");
    d.put("topics.partitions", "3");
    d.put("topics.replication.factor", "-1");
    d.put("dlq.max.message.bytes", String.valueOf(8 << 20));
    d.put("startup.timeout.ms", "15000");
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

  public boolean getBoolean(String key) {
    String v = values.get(key).trim().toLowerCase(Locale.ROOT);
    if (!v.equals("true") && !v.equals("false")) {
      throw new ConfigException(key + " must be true or false, got '" + v + "'");
    }
    return v.equals("true");
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
    if (maxBytes <= 0 || maxFrames <= 0) {
      throw new ConfigException("max.event.bytes and max.frames.per.event must be positive");
    }
    return new TopologyConfig(
        new TopicNames(get("topic.raw"), get("topic.symbolicated"), get("topic.dlq")),
        format, maxBytes, maxFrames);
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
