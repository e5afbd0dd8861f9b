package io.symbolicate.deploy;

import java.util.List;
import tools.jackson.databind.JsonNode;

/** One overlay's rendered objects, with look-ups by kind and name. */
record Rendered(String overlay, List<JsonNode> objects) {

  static String kind(JsonNode o) {
    return o.path("kind").asString("");
  }

  static String name(JsonNode o) {
    return o.path("metadata").path("name").asString("");
  }

  static String id(JsonNode o) {
    return kind(o) + "/" + name(o);
  }

  List<JsonNode> ofKind(String kind) {
    return objects.stream().filter(o -> kind.equals(kind(o))).toList();
  }

  /** The only object of a kind with this name (a ConfigMap's name may carry kustomize's hash suffix). */
  JsonNode one(String kind, String name) {
    List<JsonNode> found =
        ofKind(kind).stream()
            .filter(
                o ->
                    name.equals(name(o))
                        || kind.equals("ConfigMap") && name(o).startsWith(name + "-"))
            .toList();
    if (found.size() != 1) {
      throw new AssertionError(
          overlay + ": expected one " + kind + "/" + name + ", found " + found.size());
    }
    return found.get(0);
  }

  @Override
  public String toString() {
    return overlay;
  }
}
