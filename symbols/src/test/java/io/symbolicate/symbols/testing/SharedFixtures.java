package io.symbolicate.symbols.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Locates {@code ../shared} (peer fixtures, benchmark inputs), which lives beside the checkout
 * and is never copied into the repository. Maven passes its path as {@code shared.dir}; outside
 * Maven we walk up from the working directory.
 */
public final class SharedFixtures {
  private SharedFixtures() {}

  public static Path sharedDir() {
    String prop = System.getProperty("shared.dir");
    if (prop != null && Files.isDirectory(Paths.get(prop, "fixtures"))) {
      return Paths.get(prop).toAbsolutePath().normalize();
    }
    for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
      Path candidate = p.resolveSibling("shared");
      if (Files.isDirectory(candidate.resolve("fixtures"))) {
        return candidate.normalize();
      }
    }
    throw new IllegalStateException(
        "../shared/fixtures not found beside the checkout (set -Dshared.dir=...)");
  }

  /** {@code ../shared/fixtures/<platform>}, e.g. {@code fixtures("native")}. */
  public static Path fixtures(String platform) {
    return sharedDir().resolve("fixtures").resolve(platform);
  }
}
