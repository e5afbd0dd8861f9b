package io.symbolicate.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

class KubernetesSchemaTest {
  static List<String> overlays() throws Exception {
    return Kustomize.overlays();
  }

  @ParameterizedTest
  @MethodSource("overlays")
  void everyKubernetesObjectFitsTheModel(String overlay) throws Exception {
    List<JsonNode> objects =
        Overlays.get(overlay).objects().stream().filter(KubernetesSchemas::covers).toList();
    assertThat(objects).hasSizeGreaterThanOrEqualTo(7);
    assertThat(objects.stream().flatMap(o -> KubernetesSchemas.validate(o).stream())).isEmpty();
  }

  private static ObjectNode statefulSet() throws Exception {
    return (ObjectNode) Overlays.get("dev").one("StatefulSet", "symbolicator-streams").deepCopy();
  }

  @Test
  void aMisspelledFieldIsRefused() throws Exception {
    ObjectNode sts = statefulSet();
    ((ObjectNode) sts.path("spec")).put("replica", 3);
    assertThat(KubernetesSchemas.validate(sts)).singleElement().asString().contains("replica");

    ObjectNode nested = statefulSet();
    ((ObjectNode) nested.path("spec").path("template").path("spec").path("containers").path(0))
        .put("readinesProbe", "x");
    assertThat(KubernetesSchemas.validate(nested))
        .singleElement()
        .asString()
        .contains("readinesProbe");
  }

  @Test
  void aValueOfTheWrongTypeIsRefused() throws Exception {
    ObjectNode sts = statefulSet();
    ((ObjectNode) sts.path("spec")).put("replicas", "3");
    assertThat(KubernetesSchemas.validate(sts)).hasSize(1);

    ObjectNode env = statefulSet();
    ObjectNode javaOpts =
        (ObjectNode)
            env.path("spec")
                .path("template")
                .path("spec")
                .path("containers")
                .path(0)
                .path("env")
                .path(2);
    assertThat(javaOpts.path("name").asString()).isEqualTo("JAVA_OPTS");
    javaOpts.put("value", 512);
    assertThat(KubernetesSchemas.validate(env)).hasSize(1);

    ObjectNode meta = statefulSet();
    ((ObjectNode) meta.path("metadata")).put("lables", "x");
    assertThat(KubernetesSchemas.validate(meta)).singleElement().asString().contains("lables");
  }

  @Test
  void aKindWithoutSchemaIsRefused() throws Exception {
    ObjectNode o = statefulSet();
    o.put("kind", "ServiceMonitor");
    assertThat(KubernetesSchemas.validate(o)).singleElement().asString().contains("no schema");
  }
}
