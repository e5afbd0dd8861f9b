package io.symbolicate.signatures;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Locates {@code ../shared/fixtures/siggen} (never copied into the repository): from the
 * {@code shared.dir} property Maven passes, else by walking up from the working directory.
 */
final class SiggenFixtures {
  private SiggenFixtures() {}

  static Path dir() {
    String prop = System.getProperty("shared.dir");
    if (prop != null && Files.isDirectory(Paths.get(prop, "fixtures", "siggen"))) {
      return Paths.get(prop, "fixtures", "siggen").toAbsolutePath().normalize();
    }
    for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
      Path candidate = p.resolveSibling("shared").resolve("fixtures").resolve("siggen");
      if (Files.isDirectory(candidate)) {
        return candidate.normalize();
      }
    }
    throw new IllegalStateException("../shared/fixtures/siggen not found (set -Dshared.dir=...)");
  }

  /** Socorro's signature lists, as shipped with siggen at the fixtures' commit. */
  static Path socorroLists() {
    return dir().resolve("socorro-siggen/siggen/siglists");
  }

  static Path derived(String name) {
    return dir().resolve("derived").resolve(name);
  }
}
