package io.symbolicate.symbols.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;

/**
 * Locates the minidump corpus {@code ../shared/bench/minidumps.sh DIR} generates (never
 * committed) and decides what a test does without it. Lookup: {@code -Dminidump.corpus=DIR}, the
 * environment variable {@value #LOCATION_ENV} ({@code .ci/run} sets it), {@code
 * bench-data/minidump} inside the checkout (where {@code .ci/run} generates it), {@code
 * bench-data/minidump} beside {@code ../shared} (a developer's machine).
 *
 * <p>Without the corpus a test is skipped with a message, so a developer's {@code mvn verify}
 * works on a fresh clone; with {@value #REQUIRE_ENV}{@code =1} ({@code .ci/run} sets it) it
 * fails instead, so CI never passes without running the tests it names.
 */
public final class GeneratedCorpus {
  public static final String LOCATION_ENV = "SYMBOLICATE_MINIDUMP_CORPUS";
  public static final String REQUIRE_ENV = "SYMBOLICATE_REQUIRE_CORPUS";

  private GeneratedCorpus() {}

  /** The corpus directory (it may not exist). */
  public static Path minidump() {
    String p = System.getProperty("minidump.corpus");
    if (p == null || p.isBlank()) {
      p = System.getenv(LOCATION_ENV);
    }
    if (p != null && !p.isBlank()) {
      return Paths.get(p).toAbsolutePath().normalize();
    }
    Path beside = SharedFixtures.sharedDir().resolveSibling("bench-data").resolve("minidump");
    // the checkout is an ancestor of the module directory that holds ../shared beside it
    for (Path d = Paths.get("").toAbsolutePath(); d != null; d = d.getParent()) {
      Path inside = d.resolve("bench-data").resolve("minidump");
      if (Files.isRegularFile(inside.resolve("cases.json"))) {
        return inside.normalize();
      }
      if (d.equals(beside.getParent().getParent())) {
        break;
      }
    }
    return beside;
  }

  /** True when {@value #REQUIRE_ENV} (or {@code -Dcorpus.required}) asks for every corpus test. */
  public static boolean required() {
    return "1".equals(System.getenv(REQUIRE_ENV))
        || Boolean.parseBoolean(System.getProperty("corpus.required"));
  }

  /**
   * Continues when {@code present}; otherwise skips the test (developer run) or fails it (CI),
   * naming what is missing and how to generate it.
   */
  public static void need(boolean present, String what) {
    if (present) {
      return;
    }
    Path dir = minidump();
    String message =
        what
            + " missing: generate the corpus with ../shared/bench/minidumps.sh "
            + dir
            + " (.ci/run does), or pass -Dminidump.corpus=DIR";
    if (required()) {
      Assertions.fail(message + " [" + REQUIRE_ENV + "=1: CI runs every corpus test]");
    }
    Assumptions.abort(message);
  }

  /** True when the corpus (its {@code cases.json}) is there. */
  public static boolean present() {
    return Files.isRegularFile(minidump().resolve("cases.json"));
  }

  /**
   * For a {@code @TestFactory} without the corpus: one test that skips or fails (an aborted
   * factory would be reported as no test at all, not as skipped).
   */
  public static Stream<DynamicTest> missingCorpusTest() {
    return Stream.of(DynamicTest.dynamicTest("generated minidump corpus", () -> requireCases()));
  }

  /** {@link #need} for the corpus as a whole (its {@code cases.json}). */
  public static Path requireCases() {
    Path dir = minidump();
    need(Files.isRegularFile(dir.resolve("cases.json")), "generated minidump corpus " + dir);
    return dir;
  }
}
