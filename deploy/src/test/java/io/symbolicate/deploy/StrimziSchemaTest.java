package io.symbolicate.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class StrimziSchemaTest {
  private static StrimziSchemas schemas;

  @BeforeAll
  static void load() throws Exception {
    schemas = StrimziSchemas.load();
  }

  static List<String> overlays() throws Exception {
    return Kustomize.overlays();
  }

  @Test
  void theCrdsOfTheKindsWeUseAreLoaded() {
    assertThat(schemas.types())
        .contains(
            "kafka.strimzi.io/v1/KafkaTopic",
            "kafka.strimzi.io/v1/KafkaConnect",
            "kafka.strimzi.io/v1/KafkaConnector");
  }

  @ParameterizedTest
  @MethodSource("overlays")
  void everyStrimziObjectFitsItsCrd(String overlay) throws Exception {
    List<JsonNode> objects =
        Overlays.get(overlay).objects().stream().filter(StrimziSchemas::covers).toList();
    assertThat(objects).hasSizeGreaterThanOrEqualTo(10);
    assertThat(objects.stream().flatMap(o -> schemas.validate(o).stream())).isEmpty();
  }

  private static ObjectNode topic() throws Exception {
    return (ObjectNode) Overlays.get("production").one("KafkaTopic", "symbols.tables").deepCopy();
  }

  @Test
  void aMisspelledFieldIsRefused() throws Exception {
    ObjectNode t = topic();
    ((ObjectNode) t.path("spec")).put("partiton", 3);
    assertThat(schemas.validate(t)).singleElement().asString().contains("partiton");

    ObjectNode connect =
        (ObjectNode)
            Overlays.get("production").one("KafkaConnect", "symbolicate-connect").deepCopy();
    ((ObjectNode)
            connect.path("spec").path("template").path("connectContainer").path("env").path(0))
        .put("valu", "x");
    assertThat(schemas.validate(connect)).isNotEmpty();
  }

  @Test
  void aWrongTypeOrRangeIsRefused() throws Exception {
    ObjectNode t = topic();
    ((ObjectNode) t.path("spec")).put("partitions", "twelve");
    assertThat(schemas.validate(t)).isNotEmpty();

    ObjectNode k =
        (ObjectNode)
            Overlays.get("production").one("KafkaConnector", "symbols-s3-source").deepCopy();
    ((ObjectNode) k.path("spec")).put("tasksMax", 0);
    assertThat(schemas.validate(k)).isNotEmpty();
  }

  @Test
  void anIntOrStringTakesNothingElse() throws Exception {
    ObjectNode connect =
        (ObjectNode)
            Overlays.get("production").one("KafkaConnect", "symbolicate-connect").deepCopy();
    ObjectNode requests = (ObjectNode) connect.path("spec").path("resources").path("requests");
    requests.put("cpu", 1);
    assertThat(schemas.validate(connect)).isEmpty();
    requests.put("cpu", true);
    assertThat(schemas.validate(connect))
        .isNotEmpty()
        .allSatisfy(e -> assertThat(e).contains("cpu"));
  }

  @Test
  void freeFormConfigsStayOpen() throws Exception {
    // the topic's and connector's configs are free maps in the CRDs
    // (x-kubernetes-preserve-unknown-fields)
    ObjectNode t = topic();
    ((ObjectNode) t.path("spec").path("config")).put("segment.bytes", "1073741824");
    assertThat(schemas.validate(t)).isEmpty();
  }

  @Test
  void anUnknownVersionIsRefused() throws Exception {
    ObjectNode t = topic();
    t.put("apiVersion", "kafka.strimzi.io/v1alpha9");
    assertThat(schemas.validate(t)).singleElement().asString().contains("no served CRD version");
  }
}
