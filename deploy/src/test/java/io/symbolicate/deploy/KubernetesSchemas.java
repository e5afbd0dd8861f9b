package io.symbolicate.deploy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.cfg.MapperConfig;
import tools.jackson.databind.introspect.Annotated;
import tools.jackson.databind.introspect.JacksonAnnotationIntrospector;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

/**
 * Checks built-in Kubernetes objects against fabric8's model of the API (generated from the
 * Kubernetes OpenAPI spec): every field must exist where it stands, with its type. fabric8's
 * classes keep unknown fields in an "additional properties" map; the mapper here turns that off,
 * so an unknown field is an error, as {@code kubectl apply}'s strict field validation makes it.
 */
final class KubernetesSchemas {
  /** The kinds the manifests may use, by apiVersion/kind: anything else has no schema here. */
  static final Map<String, Class<?>> KINDS =
      Map.of(
          "v1/ConfigMap", ConfigMap.class,
          "v1/Service", Service.class,
          "apps/v1/Deployment", Deployment.class,
          "apps/v1/StatefulSet", StatefulSet.class,
          "policy/v1/PodDisruptionBudget", PodDisruptionBudget.class,
          "autoscaling/v2/HorizontalPodAutoscaler", HorizontalPodAutoscaler.class);

  private static final JsonMapper STRICT =
      JsonMapper.builder()
          .annotationIntrospector(
              new JacksonAnnotationIntrospector() {
                @Override
                public Boolean hasAnySetter(MapperConfig<?> config, Annotated a) {
                  return Boolean.FALSE; // no catch-all for unknown fields
                }
              })
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          // the API server takes no "3" for 3, nor 3 for "3" or "true" for true
          .withCoercionConfig(
              LogicalType.Integer,
              c -> c.setCoercion(CoercionInputShape.String, CoercionAction.Fail))
          .withCoercionConfig(
              LogicalType.Float, c -> c.setCoercion(CoercionInputShape.String, CoercionAction.Fail))
          .withCoercionConfig(
              LogicalType.Boolean,
              c -> c.setCoercion(CoercionInputShape.String, CoercionAction.Fail))
          .withCoercionConfig(
              LogicalType.Textual,
              c ->
                  c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                      .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                      .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
          .build();

  private KubernetesSchemas() {}

  static boolean covers(JsonNode o) {
    return !o.path("apiVersion").asString("").contains(".strimzi.io/");
  }

  /** The object's errors; empty when it fits the model. */
  static List<String> validate(JsonNode o) {
    String type = o.path("apiVersion").asString("") + "/" + Rendered.kind(o);
    Class<?> model = KINDS.get(type);
    if (model == null) {
      return List.of(
          Rendered.id(o) + ": no schema for " + type + " (known: " + KINDS.keySet() + ")");
    }
    try {
      STRICT.treeToValue(o, model);
      return List.of();
    } catch (JacksonException e) {
      return List.of(
          Rendered.id(o) + ": " + e.getOriginalMessage() + " at " + e.getPathReference());
    }
  }
}
