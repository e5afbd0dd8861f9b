package io.symbolicate.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

class ManifestConsistencyTest {
  static List<String> overlays() throws Exception {
    return Kustomize.overlays();
  }

  @ParameterizedTest
  @MethodSource("overlays")
  void theManifestsAgreeWithTheApp(String overlay) throws Exception {
    assertThat(ManifestChecks.check(Overlays.get(overlay))).isEmpty();
  }

  /** The production overlay with one object changed. */
  private static Rendered changed(String kind, String name, Consumer<ObjectNode> change)
      throws Exception {
    Rendered r = Overlays.get("production");
    List<JsonNode> objects = new ArrayList<>();
    for (JsonNode o : r.objects()) {
      JsonNode copy = o.deepCopy();
      if (kind.equals(Rendered.kind(o))
          && (name.equals(Rendered.name(o)) || kind.equals("ConfigMap"))) {
        change.accept((ObjectNode) copy);
      }
      objects.add(copy);
    }
    return new Rendered("production (changed)", objects);
  }

  private static void setProperties(ObjectNode cm, String extra) {
    ObjectNode data = (ObjectNode) cm.path("data");
    data.put(
        ManifestChecks.CONFIG_FILE_KEY,
        data.path(ManifestChecks.CONFIG_FILE_KEY).asString() + extra);
  }

  @Test
  void anUnknownConfigurationKeyIsFound() throws Exception {
    Rendered r = changed("ConfigMap", "", cm -> setProperties(cm, "\npage.cache.size=1000\n"));
    assertThat(ManifestChecks.check(r)).anyMatch(p -> p.contains("'page.cache.size'"));
  }

  @Test
  void anUnknownKeyInAContainersArgumentsIsFound() throws Exception {
    Rendered r =
        changed(
            "StatefulSet",
            "symbolicator-streams",
            s ->
                ((ArrayNode)
                        s.path("spec")
                            .path("template")
                            .path("spec")
                            .path("containers")
                            .path(0)
                            .path("args"))
                    .add("--set")
                    .add("stat.dir=/x"));
    assertThat(ManifestChecks.check(r)).anyMatch(p -> p.contains("'stat.dir'"));
  }

  @Test
  void aValueTheAppRefusesIsFound() throws Exception {
    Rendered r = changed("ConfigMap", "", cm -> setProperties(cm, "\ninput.format=xml\n"));
    assertThat(ManifestChecks.check(r)).anyMatch(p -> p.contains("do not load"));
  }

  @Test
  void aTopicWithTheWrongCleanupPolicyIsFound() throws Exception {
    Rendered r =
        changed(
            "KafkaTopic",
            "symbols.tables",
            t -> ((ObjectNode) t.path("spec").path("config")).put("cleanup.policy", "delete"));
    assertThat(ManifestChecks.check(r))
        .anyMatch(p -> p.contains("symbols.tables has cleanup.policy delete"));
  }

  @Test
  void aTopicTooSmallForTheAppsRecordsIsFound() throws Exception {
    Rendered r =
        changed(
            "KafkaTopic",
            "crash-events.dlq",
            t -> ((ObjectNode) t.path("spec").path("config")).put("max.message.bytes", "1048588"));
    assertThat(ManifestChecks.check(r))
        .anyMatch(p -> p.contains("crash-events.dlq takes records of 1048588"));
  }

  @Test
  void moreInSyncReplicasThanReplicasAreFound() throws Exception {
    Rendered r =
        changed(
            "KafkaTopic",
            "crash-events.raw",
            t -> ((ObjectNode) t.path("spec")).put("replicas", 1));
    assertThat(ManifestChecks.check(r))
        .anyMatch(p -> p.contains("crash-events.raw needs 2 in-sync replicas of 1"));
  }

  @Test
  void aMissingOrForeignTopicIsFound() throws Exception {
    Rendered r =
        changed(
            "KafkaTopic",
            "symbols.index",
            t -> ((ObjectNode) t.path("spec")).put("topicName", "symbols.idx"));
    assertThat(ManifestChecks.check(r))
        .anyMatch(p -> p.contains("KafkaTopic symbols.idx is no topic of the app"))
        .anyMatch(p -> p.contains("no KafkaTopic for the app's topics [symbols.index]"));
  }

  @Test
  void aRenamedTopicInTheConfigurationNeedsItsKafkaTopic() throws Exception {
    Rendered r = changed("ConfigMap", "", cm -> setProperties(cm, "\ntopic.raw=crashes\n"));
    assertThat(ManifestChecks.check(r))
        .anyMatch(p -> p.contains("no KafkaTopic for the app's topics [crashes]"));
  }

  @Test
  void stateOutsideTheVolumeIsFound() throws Exception {
    Rendered r = changed("ConfigMap", "", cm -> setProperties(cm, "\nstate.dir=/tmp/state\n"));
    assertThat(ManifestChecks.check(r))
        .anyMatch(p -> p.contains("is not a PersistentVolumeClaim's mount"));
  }

  @Test
  void probesOnAnotherPortAreFound() throws Exception {
    Rendered r = changed("ConfigMap", "", cm -> setProperties(cm, "\nmetrics.port=9500\n"));
    assertThat(ManifestChecks.check(r))
        .anyMatch(p -> p.contains("readinessProbe is not GET /health on port 9500"))
        .anyMatch(p -> p.contains("Prometheus does not scrape /metrics on port 9500"));
  }

  @Test
  void aConnectorWritingElsewhereIsFound() throws Exception {
    Rendered r =
        changed(
            "KafkaConnector",
            "symbols-s3-source",
            k -> ((ObjectNode) k.path("spec").path("config")).put("topic", "uploads"));
    assertThat(ManifestChecks.check(r))
        .anyMatch(p -> p.contains("writes to uploads, the loader reads symbols.uploads"));
  }

  @Test
  void aShortGracePeriodIsFound() throws Exception {
    Rendered r =
        changed(
            "StatefulSet",
            "symbolicator-streams",
            s ->
                ((ObjectNode) s.path("spec").path("template").path("spec"))
                    .put("terminationGracePeriodSeconds", 30));
    assertThat(ManifestChecks.check(r)).anyMatch(p -> p.contains("terminationGracePeriodSeconds"));
  }

  @Test
  void aConnectorSettingTheConnectorDoesNotHaveIsFound() throws Exception {
    Rendered r =
        changed(
            "KafkaConnector",
            "symbols-s3-source",
            k -> ((ObjectNode) k.path("spec").path("config")).put("s3.path.style", "true"));
    assertThat(ManifestChecks.check(r))
        .anyMatch(p -> p.contains("sets 's3.path.style', which is no setting of"));
  }

  @Test
  void theConnectorsInternalSettingIsRefused() throws Exception {
    Rendered r =
        changed(
            "KafkaConnector",
            "symbols-s3-source",
            k -> ((ObjectNode) k.path("spec").path("config")).put("task.prefixes", "a/"));
    assertThat(ManifestChecks.check(r))
        .anyMatch(p -> p.contains("'task.prefixes', which the connector sets for each task"));
  }

  @Test
  void connectsOwnSettingsAreAccepted() throws Exception {
    Rendered r =
        changed(
            "KafkaConnector",
            "symbols-s3-source",
            k ->
                ((ObjectNode) k.path("spec").path("config"))
                    .put(
                        "value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter")
                    .put(
                        "transforms.route.type",
                        "org.apache.kafka.connect.transforms.RegexRouter"));
    assertThat(ManifestChecks.check(r)).isEmpty();
  }

  @Test
  void aConnectorValueTheConnectorRefusesIsFound() throws Exception {
    Rendered r =
        changed(
            "KafkaConnector",
            "symbols-s3-source",
            k -> ((ObjectNode) k.path("spec").path("config")).put("poll.interval.ms", "10"));
    assertThat(ManifestChecks.check(r))
        .anyMatch(p -> p.contains("the connector refuses poll.interval.ms=10"));
  }

  @Test
  void aConnectorLeftWithTheWorkersConverterIsFound() throws Exception {
    Rendered r =
        changed(
            "KafkaConnector",
            "symbols-s3-source",
            k -> ((ObjectNode) k.path("spec").path("config")).remove("value.converter"));
    assertThat(ManifestChecks.check(r))
        .anyMatch(
            p ->
                p.contains(
                    "value.converter is not org.apache.kafka.connect.converters.ByteArrayConverter"));
  }

  @Test
  void anUnknownLogFormatIsFound() throws Exception {
    Rendered r =
        changed(
            "Deployment",
            "symbolicator-loader",
            d ->
                ((ArrayNode)
                        d.path("spec")
                            .path("template")
                            .path("spec")
                            .path("containers")
                            .path(0)
                            .path("env"))
                    .addObject()
                    .put("name", "SYMBOLICATOR_LOG_FORMAT")
                    .put("value", "logfmt"));
    assertThat(ManifestChecks.check(r))
        .anyMatch(p -> p.contains("SYMBOLICATOR_LOG_FORMAT=logfmt is not one of [text, json]"));
  }

  @Test
  void productionLogsJsonForTheLogCollector() throws Exception {
    Rendered r = Overlays.get("production");
    for (String kind : List.of("StatefulSet", "Deployment")) {
      for (JsonNode w : r.ofKind(kind)) {
        assertThat(
                w.path("spec")
                    .path("template")
                    .path("spec")
                    .path("containers")
                    .path(0)
                    .path("env")
                    .valueStream()
                    .filter(e -> e.path("name").asString().equals("SYMBOLICATOR_LOG_FORMAT"))
                    .map(e -> e.path("value").asString()))
            .as(Rendered.id(w))
            .containsExactly("json");
      }
    }
  }
}
