package io.symbolicate.connectors.s3;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;

/**
 * Kafka Connect source connector announcing the symbol files of an S3 bucket on
 * {@code symbols.uploads} (see docs/connectors.md). The configured prefixes are dealt out to the
 * tasks; a task lists each of its prefixes on its own ({@link PrefixScanner}).
 */
public final class S3SourceConnector extends SourceConnector {
  static final String VERSION = versionOf();

  private Map<String, String> props;
  private List<String> prefixes;

  @Override
  public String version() {
    return VERSION;
  }

  @Override
  public void start(Map<String, String> props) {
    S3SourceConfig config =
        new S3SourceConfig(props); // refuses a bad configuration with its reason
    this.props = Map.copyOf(props);
    this.prefixes = config.prefixes();
  }

  @Override
  public Class<? extends Task> taskClass() {
    return S3SourceTask.class;
  }

  /** Prefixes dealt round-robin to at most {@code maxTasks} tasks (never a task without one). */
  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    return split(prefixes, maxTasks).stream()
        .map(
            group -> {
              Map<String, String> task = new HashMap<>(props);
              task.put(S3SourceConfig.TASK_PREFIXES, String.join(",", group));
              return (Map<String, String>) task;
            })
        .toList();
  }

  static List<List<String>> split(List<String> prefixes, int maxTasks) {
    int n = Math.max(1, Math.min(maxTasks, prefixes.size()));
    List<List<String>> groups = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      groups.add(new ArrayList<>());
    }
    for (int i = 0; i < prefixes.size(); i++) {
      groups.get(i % n).add(prefixes.get(i));
    }
    return groups;
  }

  @Override
  public void stop() {
    // the tasks hold the clients
  }

  @Override
  public ConfigDef config() {
    return S3SourceConfig.CONFIG_DEF;
  }

  /** At-least-once: records and offsets are not written in one transaction. */
  @Override
  public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> connectorConfig) {
    return ExactlyOnceSupport.UNSUPPORTED;
  }

  private static String versionOf() {
    String v = S3SourceConnector.class.getPackage().getImplementationVersion();
    return v != null ? v : "0.1.0-SNAPSHOT";
  }
}
