package io.symbolicate.deploy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MappingIterator;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** Renders a kustomization with {@code kubectl kustomize} (offline: it reads local files only). */
final class Kustomize {
  /** The deploy folder: the module's base directory, surefire's working directory. */
  static final Path DEPLOY_DIR = Path.of("").toAbsolutePath();

  static final Path OVERLAYS = DEPLOY_DIR.resolve("overlays");

  /** Longest a render may take (a local render takes well under a second). */
  private static final long RENDER_TIMEOUT_SECONDS = 60;

  static final YAMLMapper YAML = YAMLMapper.builder().build();

  private Kustomize() {}

  /** The overlays' names (folders under overlays/ with a kustomization.yaml). */
  static List<String> overlays() throws IOException {
    try (Stream<Path> dirs = Files.list(OVERLAYS)) {
      return dirs.filter(d -> Files.isRegularFile(d.resolve("kustomization.yaml")))
          .map(d -> d.getFileName().toString())
          .sorted()
          .toList();
    }
  }

  /** The objects {@code kubectl kustomize DIR} renders, in its order. */
  static List<JsonNode> render(Path dir) throws IOException, InterruptedException {
    Process p;
    Path err = Files.createTempFile("kustomize", ".err");
    Path out = Files.createTempFile("kustomize", ".yaml");
    try {
      try {
        p =
            new ProcessBuilder("kubectl", "kustomize", dir.toString())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
      } catch (IOException e) {
        throw new AssertionError(
            "kubectl is not on the PATH ("
                + e.getMessage()
                + "): the deploy module's tests"
                + " render the overlays with `kubectl kustomize`; install kubectl (CI machines have it)",
            e);
      }
      if (!p.waitFor(RENDER_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError(
            "kubectl kustomize " + dir + " did not finish within " + RENDER_TIMEOUT_SECONDS + " s");
      }
      if (p.exitValue() != 0) {
        throw new AssertionError(
            "kubectl kustomize "
                + dir
                + " failed (exit "
                + p.exitValue()
                + "): "
                + Files.readString(err, StandardCharsets.UTF_8).strip());
      }
      return parse(Files.readString(out, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(err);
      Files.deleteIfExists(out);
    }
  }

  /** The documents of a multi-document YAML stream (empty documents skipped). */
  static List<JsonNode> parse(String yaml) {
    List<JsonNode> docs = new ArrayList<>();
    try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(yaml)) {
      while (it.hasNextValue()) {
        JsonNode n = it.nextValue();
        if (n != null && !n.isNull() && !n.isMissingNode()) {
          docs.add(n);
        }
      }
    }
    return docs;
  }
}
