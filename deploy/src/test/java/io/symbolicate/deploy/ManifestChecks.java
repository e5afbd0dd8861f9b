package io.symbolicate.deploy;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKey;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.connectors.s3.S3SourceConnector;
import io.symbolicate.schema.topic.Topic;
import io.symbolicate.schema.topic.Topics;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Connector;
import org.apache.kafka.connect.runtime.SourceConnectorConfig;
import tools.jackson.databind.JsonNode;

/**
 * What the manifests say about the app, checked against the app: every configuration key exists
 * (ConfigKeys, or a {@code streams.} pass-through) and the whole file loads; every topic of the
 * registry is a KafkaTopic with the registry's cleanup policy and the record sizes the app needs;
 * volumes, ports and probes sit where the configuration says.
 */
final class ManifestChecks {
  static final String CONFIG_MAP = "symbolicator-config";
  static final String CONFIG_FILE_KEY = "symbolicator.properties";
  static final String CONNECTOR_CLASS = "io.symbolicate.connectors.s3.S3SourceConnector";

  /** TopicProvisioner gives symbols.tables this max.message.bytes: a table page is up to 4 MB. */
  static final long TABLE_RECORD_BYTES = 4 << 20;

  /** The image's entrypoint selects the app's logback configuration by this variable (docs/operations.md, Logging). */
  static final String LOG_FORMAT_ENV = "SYMBOLICATOR_LOG_FORMAT";

  static final List<String> LOG_FORMATS = List.of("text", "json");
  static final String BYTE_ARRAY_CONVERTER =
      "org.apache.kafka.connect.converters.ByteArrayConverter";

  /** Connect's settings of a connector that take a name after a prefix (a transform's, an override's). */
  static final List<String> CONNECT_PREFIXES =
      List.of(
          "transforms.",
          "predicates.",
          "key.converter.",
          "value.converter.",
          "header.converter.",
          "topic.creation.",
          "producer.override.",
          "admin.override.",
          "errors.");

  /** SymbolicatorApp.close() waits this long for Kafka Streams to commit and close. */
  static final int APP_CLOSE_SECONDS = 30;

  private final Rendered r;
  private final List<String> problems = new ArrayList<>();

  private ManifestChecks(Rendered r) {
    this.r = r;
  }

  static List<String> check(Rendered r) {
    ManifestChecks c = new ManifestChecks(r);
    c.run();
    return c.problems;
  }

  private void problem(String s) {
    problems.add(r.overlay() + ": " + s);
  }

  private void run() {
    Properties props = properties();
    Map<String, String> known = new HashMap<>();
    for (ConfigKey k : ConfigKeys.ALL) {
      known.put(k.name(), k.defaultValue());
    }
    props.stringPropertyNames().stream().sorted().forEach(k -> checkKey(k, CONFIG_FILE_KEY, known));
    Map<String, String> file = new LinkedHashMap<>();
    props.stringPropertyNames().forEach(k -> file.put(k, props.getProperty(k).trim()));
    AppConfig cfg = load(file, Map.of(), "the config file");
    if (cfg == null) {
      return;
    }
    for (JsonNode w : workloads()) {
      for (JsonNode c : w.path("spec").path("template").path("spec").path("containers")) {
        Map<String, String> sets = sets(c);
        sets.keySet().forEach(k -> checkKey(k, Rendered.id(w) + " --set", known));
        load(file, sets, Rendered.id(w) + "'s settings");
        checkContainer(w, c, cfg);
      }
    }
    checkTopics(cfg);
    checkStreams(cfg);
    checkServe(cfg);
    checkConnect(cfg);
  }

  private void checkKey(String key, String where, Map<String, String> known) {
    if (!known.containsKey(key) && !key.startsWith(AppConfig.STREAMS_PREFIX)) {
      problem(
          where
              + " sets '"
              + key
              + "', which is no key of ConfigKeys nor a "
              + AppConfig.STREAMS_PREFIX
              + " pass-through");
    }
  }

  private AppConfig load(Map<String, String> file, Map<String, String> sets, String what) {
    try {
      Path tmp = Files.createTempFile("symbolicator", ".properties");
      try {
        Properties p = new Properties();
        p.putAll(file);
        try (var w = Files.newBufferedWriter(tmp)) {
          p.store(w, null);
        }
        return AppConfig.load(tmp, sets);
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (AppConfig.ConfigException e) {
      problem(what + " do not load: " + e.getMessage());
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private Properties properties() {
    JsonNode cm = r.one("ConfigMap", CONFIG_MAP);
    String text = cm.path("data").path(CONFIG_FILE_KEY).asString(null);
    if (text == null) {
      throw new AssertionError(
          r.overlay() + ": ConfigMap " + CONFIG_MAP + " has no " + CONFIG_FILE_KEY);
    }
    Properties p = new Properties();
    try {
      p.load(new StringReader(text));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p;
  }

  private List<JsonNode> workloads() {
    List<JsonNode> w = new ArrayList<>(r.ofKind("StatefulSet"));
    w.addAll(r.ofKind("Deployment"));
    return w;
  }

  /** The workload whose container runs this symbolicator command. */
  private JsonNode running(String command) {
    List<JsonNode> found =
        workloads().stream()
            .filter(
                w ->
                    command.equals(
                        w.path("spec")
                            .path("template")
                            .path("spec")
                            .path("containers")
                            .path(0)
                            .path("args")
                            .path(0)
                            .asString("")))
            .toList();
    if (found.size() != 1) {
      throw new AssertionError(
          r.overlay() + ": expected one workload running `" + command + "`, found " + found.size());
    }
    return found.get(0);
  }

  private static JsonNode container(JsonNode w) {
    return w.path("spec").path("template").path("spec").path("containers").path(0);
  }

  private static List<String> args(JsonNode c) {
    List<String> a = new ArrayList<>();
    c.path("args").forEach(n -> a.add(n.asString()));
    return a;
  }

  private static Map<String, String> sets(JsonNode c) {
    Map<String, String> sets = new LinkedHashMap<>();
    List<String> a = args(c);
    for (int i = 0; i + 1 < a.size(); i++) {
      if (a.get(i).equals("--set")) {
        String kv = a.get(i + 1);
        int eq = kv.indexOf('=');
        sets.put(eq < 0 ? kv : kv.substring(0, eq), eq < 0 ? "" : kv.substring(eq + 1));
      }
    }
    return sets;
  }

  /** mountPath -> volume name of the container. */
  private static Map<String, String> mounts(JsonNode c) {
    Map<String, String> m = new HashMap<>();
    c.path("volumeMounts")
        .forEach(v -> m.put(v.path("mountPath").asString(), v.path("name").asString()));
    return m;
  }

  private JsonNode volume(JsonNode w, String name) {
    for (JsonNode v : w.path("spec").path("template").path("spec").path("volumes")) {
      if (name.equals(v.path("name").asString())) {
        return v;
      }
    }
    return null;
  }

  private void checkContainer(JsonNode w, JsonNode c, AppConfig cfg) {
    String id = Rendered.id(w);
    List<String> a = args(c);
    int at = a.indexOf("--config");
    if (at < 0 || at + 1 >= a.size()) {
      problem(id + " passes no --config");
    } else {
      Path file = Path.of(a.get(at + 1));
      String volume = mounts(c).get(String.valueOf(file.getParent()));
      JsonNode v = volume == null ? null : volume(w, volume);
      String cmName = v == null ? "" : v.path("configMap").path("name").asString("");
      if (!file.getFileName().toString().equals(CONFIG_FILE_KEY)
          || !cmName.equals(Rendered.name(r.one("ConfigMap", CONFIG_MAP)))) {
        problem(
            id
                + ": --config "
                + file
                + " is not the ConfigMap's "
                + CONFIG_FILE_KEY
                + " (mounted: "
                + mounts(c)
                + ")");
      }
    }
    JsonNode sc = c.path("securityContext");
    JsonNode podSc = w.path("spec").path("template").path("spec").path("securityContext");
    if (!sc.path("readOnlyRootFilesystem").asBoolean(false)) {
      problem(id + ": the root filesystem is not read-only");
    }
    if (!podSc.path("runAsNonRoot").asBoolean(false) && !sc.path("runAsNonRoot").asBoolean(false)) {
      problem(id + ": may run as root");
    }
    for (JsonNode e : c.path("env")) {
      if (LOG_FORMAT_ENV.equals(e.path("name").asString())
          && !LOG_FORMATS.contains(e.path("value").asString(""))) {
        problem(
            id
                + ": "
                + LOG_FORMAT_ENV
                + "="
                + e.path("value").asString("")
                + " is not one of "
                + LOG_FORMATS
                + " (the image's entrypoint would refuse to start)");
      }
    }
    if (!mounts(c).containsKey("/tmp")) {
      problem(id + ": /tmp is not a volume (RocksDB and lz4 unpack native libraries there)");
    }
  }

  /** The port number a probe or annotation names (a number or a container port's name). */
  private static int port(JsonNode c, JsonNode port) {
    if (port.isNumber()) {
      return port.asInt();
    }
    for (JsonNode p : c.path("ports")) {
      if (port.asString("").equals(p.path("name").asString())) {
        return p.path("containerPort").asInt();
      }
    }
    return -1;
  }

  private void checkHealth(JsonNode w, int port) {
    JsonNode c = container(w);
    for (String probe : List.of("readinessProbe", "livenessProbe")) {
      JsonNode get = c.path(probe).path("httpGet");
      if (!"/health".equals(get.path("path").asString("")) || port(c, get.path("port")) != port) {
        problem(Rendered.id(w) + ": " + probe + " is not GET /health on port " + port);
      }
    }
    JsonNode ann = w.path("spec").path("template").path("metadata").path("annotations");
    if (!"true".equals(ann.path("prometheus.io/scrape").asString(""))
        || !String.valueOf(port).equals(ann.path("prometheus.io/port").asString(""))
        || !"/metrics".equals(ann.path("prometheus.io/path").asString(""))) {
      problem(Rendered.id(w) + ": Prometheus does not scrape /metrics on port " + port);
    }
  }

  private void checkStreams(AppConfig cfg) {
    JsonNode sts = running("run");
    if (!"StatefulSet".equals(Rendered.kind(sts))) {
      problem("`run` is not a StatefulSet");
      return;
    }
    String id = Rendered.id(sts);
    JsonNode c = container(sts);
    String stateVolume = mounts(c).get(cfg.get(ConfigKeys.STATE_DIR));
    boolean claimed = false;
    for (JsonNode t : sts.path("spec").path("volumeClaimTemplates")) {
      claimed |= t.path("metadata").path("name").asString("").equals(stateVolume);
    }
    if (!claimed) {
      problem(
          id
              + ": state.dir "
              + cfg.get(ConfigKeys.STATE_DIR)
              + " is not a PersistentVolumeClaim's mount");
    }
    String service = sts.path("spec").path("serviceName").asString("");
    boolean headless =
        r.ofKind("Service").stream()
            .anyMatch(
                s ->
                    Rendered.name(s).equals(service)
                        && "None".equals(s.path("spec").path("clusterIP").asString("")));
    if (!headless) {
      problem(id + ": serviceName " + service + " is no headless Service");
    }
    String server = sets(c).getOrDefault(AppConfig.STREAMS_PREFIX + "application.server", "");
    boolean podNameEnv = false;
    for (JsonNode e : c.path("env")) {
      podNameEnv |=
          "POD_NAME".equals(e.path("name").asString())
              && "metadata.name"
                  .equals(e.path("valueFrom").path("fieldRef").path("fieldPath").asString(""));
    }
    if (!server.startsWith("$(POD_NAME)." + service + ".") || !podNameEnv) {
      problem(
          id
              + ": application.server '"
              + server
              + "' is not <pod name>."
              + service
              + " (POD_NAME from metadata.name)");
    }
    if (cfg.get(AppConfig.STREAMS_PREFIX + "num.standby.replicas") == null) {
      problem("streams.num.standby.replicas is not set");
    }
    if (sts.path("spec")
            .path("template")
            .path("spec")
            .path("terminationGracePeriodSeconds")
            .asInt(30)
        <= APP_CLOSE_SECONDS) {
      problem(
          id
              + ": terminationGracePeriodSeconds is not longer than the app's close ("
              + APP_CLOSE_SECONDS
              + " s)");
    }
    if (!"0.0.0.0".equals(cfg.get(ConfigKeys.METRICS_HOST))) {
      problem(
          "metrics.host is not 0.0.0.0: probes and Prometheus could not reach /health and /metrics");
    }
    checkHealth(sts, cfg.getInt(ConfigKeys.METRICS_PORT));
    JsonNode labels = sts.path("spec").path("template").path("metadata").path("labels");
    boolean budget =
        r.ofKind("PodDisruptionBudget").stream()
            .anyMatch(p -> selects(p.path("spec").path("selector").path("matchLabels"), labels));
    if (!budget) {
      problem(id + ": no PodDisruptionBudget selects its pods");
    }
    boolean loaderApart =
        workloads().stream()
            .anyMatch(w -> "loader".equals(args(container(w)).stream().findFirst().orElse("")));
    if (loaderApart) {
      checkHealth(running("loader"), cfg.getInt(ConfigKeys.METRICS_PORT));
      if (cfg.getBoolean(ConfigKeys.LOADER_EMBEDDED)) {
        problem("a loader Deployment runs beside loader.embedded=true");
      }
    }
  }

  /** Whether a selector's labels all sit on a pod's. */
  private static boolean selects(JsonNode match, JsonNode labels) {
    if (match.isEmpty()) {
      return false;
    }
    for (Map.Entry<String, JsonNode> e : match.properties()) {
      if (!e.getValue().asString().equals(labels.path(e.getKey()).asString(null))) {
        return false;
      }
    }
    return true;
  }

  private void checkServe(AppConfig cfg) {
    JsonNode api = running("serve");
    String id = Rendered.id(api);
    JsonNode c = container(api);
    // probes on metrics.port when set: serve answers them there on their own threads
    int port = cfg.getInt(ConfigKeys.HTTP_PORT);
    checkHealth(api, cfg.metricsPort() >= 0 ? cfg.metricsPort() : port);
    if (!"0.0.0.0".equals(cfg.get(ConfigKeys.HTTP_HOST))) {
      problem("http.host is not 0.0.0.0: the Service could not reach serve");
    }
    if (!mounts(c).containsKey(cfg.get(ConfigKeys.HTTP_CACHE_DIR))) {
      problem(id + ": http.cache.dir " + cfg.get(ConfigKeys.HTTP_CACHE_DIR) + " is not a volume");
    }
    JsonNode labels = api.path("spec").path("template").path("metadata").path("labels");
    boolean service =
        r.ofKind("Service").stream()
            .anyMatch(
                s ->
                    selects(s.path("spec").path("selector"), labels)
                        && s.path("spec")
                            .path("ports")
                            .valueStream()
                            .anyMatch(p -> port(c, p.path("targetPort")) == port));
    if (!service) {
      problem(id + ": no Service sends to its port " + port);
    }
    boolean scaled =
        r.ofKind("HorizontalPodAutoscaler").stream()
            .anyMatch(
                h ->
                    Rendered.name(api)
                            .equals(h.path("spec").path("scaleTargetRef").path("name").asString(""))
                        && Rendered.kind(api)
                            .equals(
                                h.path("spec").path("scaleTargetRef").path("kind").asString("")));
    if (!scaled) {
      problem(id + ": no HorizontalPodAutoscaler scales it");
    }
  }

  static String topicName(JsonNode kt) {
    String n = kt.path("spec").path("topicName").asString("");
    return n.isEmpty() ? Rendered.name(kt) : n;
  }

  private void checkTopics(AppConfig cfg) {
    Map<String, JsonNode> declared = new LinkedHashMap<>();
    r.ofKind("KafkaTopic").forEach(t -> declared.put(topicName(t), t));
    Map<String, Topic<?, ?>> registry = new LinkedHashMap<>();
    for (Topic<?, ?> t : Topics.ALL) {
      registry.put(cfg.get(t.configKey()), t);
    }
    for (Map.Entry<String, JsonNode> e : declared.entrySet()) {
      Topic<?, ?> t = registry.get(e.getKey());
      JsonNode config = e.getValue().path("spec").path("config");
      if (t == null) {
        problem("KafkaTopic " + e.getKey() + " is no topic of the app (" + registry.keySet() + ")");
        continue;
      }
      String policy = config.path("cleanup.policy").asString("delete");
      if (!policy.equals(t.cleanup().name().toLowerCase(Locale.ROOT))) {
        problem(
            "KafkaTopic "
                + e.getKey()
                + " has cleanup.policy "
                + policy
                + ", the registry says "
                + t.cleanup());
      }
      if (!t.compacted() && !config.has("retention.ms") && !config.has("retention.bytes")) {
        problem("KafkaTopic " + e.getKey() + " is deleted by retention but sets none");
      }
      int replicas = e.getValue().path("spec").path("replicas").asInt(1);
      int minInsync = Integer.parseInt(config.path("min.insync.replicas").asString("1"));
      if (minInsync > replicas) {
        problem(
            "KafkaTopic "
                + e.getKey()
                + " needs "
                + minInsync
                + " in-sync replicas of "
                + replicas
                + ": no transaction or acks=all write could succeed");
      }
      long needed =
          t == Topics.SYMBOLICATED || t == Topics.DLQ
              ? cfg.getInt(ConfigKeys.DLQ_MAX_MESSAGE_BYTES)
              : t == Topics.SYMBOL_TABLES ? TABLE_RECORD_BYTES : 0;
      long takes =
          config.has("max.message.bytes")
              ? Long.parseLong(config.path("max.message.bytes").asString())
              : 1_048_588;
      if (takes < needed) {
        problem(
            "KafkaTopic "
                + e.getKey()
                + " takes records of "
                + takes
                + " bytes; the app writes up to "
                + needed);
      }
    }
    Set<String> missing =
        registry.keySet().stream()
            .filter(n -> !declared.containsKey(n))
            .collect(Collectors.toCollection(TreeSet::new));
    if (!missing.isEmpty()) {
      problem("no KafkaTopic for the app's topics " + missing);
    }
    Set<String> clusters =
        r.ofKind("KafkaTopic").stream()
            .map(t -> t.path("metadata").path("labels").path("strimzi.io/cluster").asString(""))
            .collect(Collectors.toSet());
    if (clusters.size() != 1 || clusters.contains("")) {
      problem("KafkaTopics name the clusters " + clusters + " (strimzi.io/cluster): expected one");
    }
  }

  private void checkConnect(AppConfig cfg) {
    for (JsonNode k : r.ofKind("KafkaConnector")) {
      String id = Rendered.id(k);
      JsonNode spec = k.path("spec");
      String cluster = k.path("metadata").path("labels").path("strimzi.io/cluster").asString("");
      if (r.ofKind("KafkaConnect").stream().noneMatch(c -> Rendered.name(c).equals(cluster))) {
        problem(id + ": strimzi.io/cluster " + cluster + " is no KafkaConnect here");
      } else if (!cfg.bootstrapServers()
          .equals(
              r.one("KafkaConnect", cluster).path("spec").path("bootstrapServers").asString(""))) {
        problem(id + ": its Connect cluster and the app use different bootstrap servers");
      }
      if (!CONNECTOR_CLASS.equals(spec.path("class").asString(""))) {
        continue;
      }
      JsonNode c = spec.path("config");
      checkConnectorConfig(id, c);
      for (String conv : List.of("key.converter", "value.converter")) {
        if (!BYTE_ARRAY_CONVERTER.equals(c.path(conv).asString(""))) {
          problem(
              id
                  + ": "
                  + conv
                  + " is not "
                  + BYTE_ARRAY_CONVERTER
                  + " (the records are the loader's wire format;"
                  + " the worker's default converter would rewrite them)");
        }
      }
      if (!cfg.get(ConfigKeys.TOPIC_UPLOADS).equals(c.path("topic").asString(""))) {
        problem(
            id
                + " writes to "
                + c.path("topic").asString("")
                + ", the loader reads "
                + cfg.get(ConfigKeys.TOPIC_UPLOADS));
      }
      if (!cfg.get(ConfigKeys.SYMBOLS_S3_BUCKET).equals(c.path("s3.bucket").asString(""))) {
        problem(
            id
                + " watches bucket "
                + c.path("s3.bucket").asString("")
                + ", the loader reads "
                + cfg.get(ConfigKeys.SYMBOLS_S3_BUCKET));
      }
    }
  }

  /**
   * Every key of the S3 connector's spec.config is a setting of the connector (its ConfigDef, not
   * an internal one) or of Connect's own source-connector settings, and the connector's
   * validation accepts every value that is not a config-provider reference.
   */
  private void checkConnectorConfig(String id, JsonNode config) {
    Connector connector = new S3SourceConnector();
    ConfigDef own = connector.config();
    Set<String> framework = SourceConnectorConfig.configDef().names();
    Map<String, String> values = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : config.properties()) {
      String key = e.getKey();
      ConfigDef.ConfigKey k = own.configKeys().get(key);
      if (k != null && k.internalConfig) {
        problem(id + " sets '" + key + "', which the connector sets for each task itself");
      } else if (k == null
          && !framework.contains(key)
          && CONNECT_PREFIXES.stream().noneMatch(key::startsWith)) {
        problem(
            id
                + " sets '"
                + key
                + "', which is no setting of "
                + CONNECTOR_CLASS
                + " ("
                + new TreeSet<>(own.names())
                + ") nor of Kafka Connect's source connectors");
      }
      String v = e.getValue().asString();
      if (k != null && !v.contains("${")) {
        values.put(key, v);
      }
    }
    for (ConfigValue v : connector.validate(values).configValues()) {
      if (values.containsKey(v.name()) && !v.errorMessages().isEmpty()) {
        problem(
            id
                + ": the connector refuses "
                + v.name()
                + "="
                + values.get(v.name())
                + ": "
                + v.errorMessages());
      }
    }
  }
}
