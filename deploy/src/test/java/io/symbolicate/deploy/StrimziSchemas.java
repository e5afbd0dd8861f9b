package io.symbolicate.deploy;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Dialects;
import com.networknt.schema.keyword.NonValidationKeyword;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Checks Strimzi custom resources against the {@code openAPIV3Schema} of their CRD, read from
 * {@code ../shared/fixtures/strimzi-crds} (Strimzi's own CRDs, see its MANIFEST.md). The API
 * server refuses fields a structural schema does not declare (strict field validation), so an
 * object schema with properties is closed here unless it says
 * {@code x-kubernetes-preserve-unknown-fields}.
 */
final class StrimziSchemas {
  static final Path CRD_DIR =
      Path.of(System.getProperty("shared.dir", "../../shared"), "fixtures", "strimzi-crds");

  private static final String PRESERVE_UNKNOWN = "x-kubernetes-preserve-unknown-fields";
  private static final String INT_OR_STRING = "x-kubernetes-int-or-string";

  private final Map<String, Schema> byType = new HashMap<>();

  private StrimziSchemas() {}

  /** Every served version of every CRD in the folder, by {@code group/version/Kind}. */
  static StrimziSchemas load() throws IOException {
    if (!Files.isDirectory(CRD_DIR)) {
      throw new AssertionError(
          "Strimzi CRDs not found at "
              + CRD_DIR
              + " (the shared fixtures sit beside the checkout)");
    }
    StrimziSchemas s = new StrimziSchemas();
    // OpenAPI v3.0 schemas are JSON Schema draft 4 with Kubernetes' extensions: closing the
    // schemas and int-or-string are done in close(); CEL rules (x-kubernetes-validations) are not
    // checked
    Dialect.Builder dialect = Dialect.builder(Dialects.getDraft4());
    for (String k :
        List.of(PRESERVE_UNKNOWN, INT_OR_STRING, "x-kubernetes-validations", "example")) {
      dialect.keyword(new NonValidationKeyword(k));
    }
    SchemaRegistry registry = SchemaRegistry.withDefaultDialect(dialect.build());
    try (Stream<Path> files = Files.list(CRD_DIR)) {
      for (Path f :
          files.filter(p -> p.getFileName().toString().endsWith(".yaml")).sorted().toList()) {
        for (JsonNode crd : Kustomize.parse(Files.readString(f))) {
          if (!"CustomResourceDefinition".equals(Rendered.kind(crd))) {
            continue;
          }
          String group = crd.path("spec").path("group").asString();
          String kind = crd.path("spec").path("names").path("kind").asString();
          for (JsonNode v : crd.path("spec").path("versions")) {
            if (v.path("served").asBoolean(false)) {
              JsonNode schema = v.path("schema").path("openAPIV3Schema").deepCopy();
              close(schema);
              s.byType.put(
                  group + "/" + v.path("name").asString() + "/" + kind, registry.getSchema(schema));
            }
          }
        }
      }
    }
    if (s.byType.isEmpty()) {
      throw new AssertionError("no CustomResourceDefinition in " + CRD_DIR);
    }
    return s;
  }

  /**
   * Closes every object schema that lists its properties (not the bare branches of oneOf), and
   * gives an int-or-string field the two types it takes.
   */
  static void close(JsonNode schema) {
    if (schema instanceof ObjectNode o) {
      if ("object".equals(o.path("type").asString(""))
          && o.has("properties")
          && !o.path(PRESERVE_UNKNOWN).asBoolean(false)
          && !o.has("additionalProperties")) {
        o.put("additionalProperties", false);
      }
      if (o.path(INT_OR_STRING).asBoolean(false) && !o.has("type")) {
        o.putArray("type").add("integer").add("string");
      }
    }
    for (JsonNode child : schema) {
      close(child);
    }
  }

  static boolean covers(JsonNode o) {
    return o.path("apiVersion").asString("").contains(".strimzi.io/");
  }

  Set<String> types() {
    return byType.keySet();
  }

  /** The object's errors; empty when it fits its CRD. */
  List<String> validate(JsonNode o) {
    String type = o.path("apiVersion").asString("") + "/" + Rendered.kind(o);
    Schema schema = byType.get(type);
    if (schema == null) {
      return List.of(
          Rendered.id(o)
              + ": no served CRD version for "
              + type
              + " (known: "
              + byType.keySet()
              + ")");
    }
    List<Error> errors = schema.validate(o);
    return errors.stream().map(e -> Rendered.id(o) + ": " + e).toList();
  }
}
