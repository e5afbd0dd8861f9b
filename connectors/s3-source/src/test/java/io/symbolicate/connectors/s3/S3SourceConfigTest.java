package io.symbolicate.connectors.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

class S3SourceConfigTest {

  static Map<String, String> base() {
    Map<String, String> p = new HashMap<>();
    p.put(S3SourceConfig.BUCKET, "symbols");
    return p;
  }

  static String errorOf(Map<String, String> props, String name) {
    Config c = new S3SourceConnector().validate(props);
    return c.configValues().stream()
        .filter(v -> v.name().equals(name))
        .findFirst()
        .map(ConfigValue::errorMessages)
        .map(List::toString)
        .orElseThrow();
  }

  @Test
  void defaultsWatchTheWholeBucketAndWriteToSymbolsUploads() {
    S3SourceConfig c = new S3SourceConfig(base());
    assertThat(c.prefixes()).containsExactly("");
    assertThat(c.getString(S3SourceConfig.TOPIC)).isEqualTo("symbols.uploads");
  }

  @Test
  void validationExplainsEachMistake() {
    assertThat(errorOf(new HashMap<>(), S3SourceConfig.BUCKET))
        .contains("Missing required configuration");
    Map<String, String> p = base();
    p.put(S3SourceConfig.PREFIXES, "scopes/acme/,scopes/");
    assertThat(errorOf(p, S3SourceConfig.PREFIXES)).contains("prefixes overlap");
    p = base();
    p.put(S3SourceConfig.PREFIXES, "/abs");
    assertThat(errorOf(p, S3SourceConfig.PREFIXES)).contains("do not start with '/'");
    p = base();
    p.put(S3SourceConfig.ENDPOINT, "ftp://host");
    assertThat(errorOf(p, S3SourceConfig.ENDPOINT)).contains("http(s)://host");
    p = base();
    p.put(S3SourceConfig.PAGE_SIZE, "5000");
    assertThat(errorOf(p, S3SourceConfig.PAGE_SIZE)).contains("no more than 1000");
    p = base();
    p.put(S3SourceConfig.POLL_INTERVAL_MS, "10");
    assertThat(errorOf(p, S3SourceConfig.POLL_INTERVAL_MS)).contains("at least 100");
  }

  @Test
  void aKeyIdWithoutItsSecretIsRefusedWithoutShowingIt() {
    Map<String, String> p = base();
    p.put(S3SourceConfig.ACCESS_KEY, "AKIDSECRETVALUE");
    assertThatThrownBy(() -> new S3SourceConfig(p))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("go together")
        .hasMessageNotContaining("AKIDSECRETVALUE");
    p.put(S3SourceConfig.SECRET_KEY, "shh");
    S3SourceConfig c = new S3SourceConfig(p);
    assertThat(c.toString()).doesNotContain("shh").doesNotContain("AKIDSECRETVALUE");
    assertThat(c.values().toString()).doesNotContain("shh");
  }

  @Test
  void prefixesAreDealtToAtMostMaxTasks() {
    assertThat(S3SourceConnector.split(List.of("a/", "b/", "c/"), 2))
        .containsExactly(List.of("a/", "c/"), List.of("b/"));
    assertThat(S3SourceConnector.split(List.of("a/"), 4)).containsExactly(List.of("a/"));
    S3SourceConnector connector = new S3SourceConnector();
    Map<String, String> p = base();
    p.put(S3SourceConfig.PREFIXES, "a/,b/,c/");
    connector.start(p);
    List<Map<String, String>> tasks = connector.taskConfigs(3);
    assertThat(tasks).hasSize(3);
    assertThat(tasks)
        .extracting(t -> t.get(S3SourceConfig.TASK_PREFIXES))
        .containsExactly("a/", "b/", "c/");
    assertThat(new S3SourceConfig(tasks.get(1)).getList(S3SourceConfig.TASK_PREFIXES))
        .containsExactly("b/");
  }
}
