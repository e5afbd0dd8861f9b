package io.symbolicate.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class OverlayRenderTest {
  static List<String> overlays() throws Exception {
    return Kustomize.overlays();
  }

  @Test
  void theDevAndProductionOverlaysExist() throws Exception {
    assertThat(Kustomize.overlays()).contains("dev", "production");
  }

  @ParameterizedTest
  @MethodSource("overlays")
  void everyOverlayRendersEveryPart(String overlay) throws Exception {
    Rendered r = Overlays.get(overlay);
    assertThat(r.objects())
        .allSatisfy(
            o -> assertThat(o.path("metadata").path("namespace").asString("")).isNotEmpty());
    assertThat(r.objects().stream().map(Rendered::kind))
        .contains(
            "ConfigMap",
            "StatefulSet",
            "Service",
            "Deployment",
            "PodDisruptionBudget",
            "HorizontalPodAutoscaler",
            "KafkaTopic",
            "KafkaConnect",
            "KafkaConnector");
    assertThat(r.ofKind("Deployment")).hasSize(2);
    // no two objects of the same kind and name
    assertThat(r.objects().stream().map(Rendered::id)).doesNotHaveDuplicates();
  }

  @Test
  void aBrokenKustomizationFailsWithKubectlsReason(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("kustomization.yaml"), "resources:\n  - missing.yaml\n");
    assertThatThrownBy(() -> Kustomize.render(dir))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("kubectl kustomize")
        .hasMessageContaining("missing.yaml");
  }
}
