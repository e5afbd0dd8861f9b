package io.symbolicate.symbols.testing;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The generated debug-file corpus of {@code scripts/difs-corpus.sh OUTDIR}: ELF and Mach-O
 * binaries built here in many packagings, with the frames at least two symbolizers agree on for
 * each of their addresses ({@code cases.json}). Generated once per machine outside the
 * repository and found like the minidump corpus ({@link #location()}). A test without it is
 * skipped, or fails when the environment sets {@code SYMBOLICATE_REQUIRE_CORPUS=1} (CI, whose
 * {@code .ci/inputs.sh} generates it first).
 */
public record DifsCorpus(Path dir, Summary summary, List<Case> cases) {

  public static final String LOCATION_ENV = "SYMBOLICATE_DIFS_CORPUS";

  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  /** Where the Windows corpus of {@code scripts/difs-win-corpus.sh} is, as {@link #location()}. */
  public static final String WINDOWS_LOCATION_ENV = "SYMBOLICATE_DIFS_WIN_CORPUS";

  /**
   * Where the corpus is expected, whether or not it exists: {@code -Ddifs.corpus=DIR}, the
   * environment variable {@value #LOCATION_ENV} ({@code .ci/inputs.sh} sets it), {@code
   * bench-data/difs} inside the checkout, else {@code bench-data/difs} beside {@code ../shared}.
   */
  public static Path location() {
    return location("difs.corpus", LOCATION_ENV, "difs");
  }

  /**
   * Where the Windows corpus (PE + PDB pairs of {@code scripts/difs-win-corpus.sh}) is expected:
   * {@code -Ddifs.win.corpus=DIR}, {@value #WINDOWS_LOCATION_ENV}, else {@code
   * bench-data/difs-win} inside the checkout or beside {@code ../shared}.
   */
  public static Path windowsLocation() {
    return location("difs.win.corpus", WINDOWS_LOCATION_ENV, "difs-win");
  }

  private static Path location(String property, String env, String folder) {
    String p = System.getProperty(property);
    if (p == null || p.isBlank()) {
      p = System.getenv(env);
    }
    if (p != null && !p.isBlank()) {
      return Paths.get(p).toAbsolutePath().normalize();
    }
    Path beside = SharedFixtures.sharedDir().resolveSibling("bench-data").resolve(folder);
    // the checkout is an ancestor of the module directory, with ../shared beside it
    for (Path d = Paths.get("").toAbsolutePath(); d != null; d = d.getParent()) {
      Path inside = d.resolve("bench-data").resolve(folder);
      if (Files.isRegularFile(inside.resolve("cases.json"))) {
        return inside.normalize();
      }
      if (d.equals(beside.getParent().getParent())) {
        break;
      }
    }
    return beside;
  }

  /**
   * The corpus at {@link #location()}; a missing corpus skips the calling test, or fails it when
   * {@link GeneratedCorpus#required()} (CI).
   */
  public static DifsCorpus loadOrSkip() {
    return loadOrSkip(location(), "scripts/difs-corpus.sh", "difs.corpus");
  }

  /** The Windows corpus at {@link #windowsLocation()}, skipped or failed as {@link #loadOrSkip()}. */
  public static DifsCorpus loadWindowsOrSkip() {
    return loadOrSkip(windowsLocation(), "scripts/difs-win-corpus.sh", "difs.win.corpus");
  }

  private static DifsCorpus loadOrSkip(Path dir, String script, String property) {
    if (!Files.isRegularFile(dir.resolve("cases.json"))) {
      String message =
          "no generated debug-file corpus at "
              + dir
              + ": run "
              + script
              + " "
              + dir
              + " (or pass -D"
              + property
              + "=DIR)";
      if (GeneratedCorpus.required()) {
        Assertions.fail(
            message + " [" + GeneratedCorpus.REQUIRE_ENV + "=1: CI runs every corpus test]");
      }
      Assumptions.abort(message);
    }
    return load(dir);
  }

  public static DifsCorpus load(Path dir) {
    try {
      Document doc = JSON.readValue(dir.resolve("cases.json").toFile(), Document.class);
      return new DifsCorpus(dir, doc.summary(), doc.cases() == null ? List.of() : doc.cases());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + dir.resolve("cases.json"), e);
    }
  }

  /** A path of cases.json (relative to the corpus directory) as a file. */
  public Path resolve(String relative) {
    return dir.resolve(relative);
  }

  /** The top level of cases.json. */
  public record Document(Summary summary, List<Case> cases) {}

  /** Counts over the whole corpus, as probe.py wrote them. */
  public record Summary(
      int binaries,
      int cases,
      int addresses,
      int expected,
      int disagreements,
      @JsonProperty("tool_pairs") Map<String, PairStats> toolPairs) {}

  public record PairStats(int addresses, int agree) {}

  /**
   * One binary of one packaging. {@code binary} is what a crash names (executable or shared
   * object, maybe stripped); {@code debugFile} where its debug info lives when elsewhere (.debug,
   * .dwp, DWZ supplementary file, dSYM bundle); {@code lookupFile} the file the symbolizers read.
   */
  public record Case(
      String name,
      @JsonProperty("case") String caseDir,
      String binary,
      @JsonProperty("debug_file") String debugFile,
      @JsonProperty("lookup_file") String lookupFile,
      String packaging,
      String compiler,
      @JsonProperty("compiler_version") String compilerVersion,
      String flags,
      String format,
      String arch,
      Map<String, String> identity,
      List<String> tools,
      @JsonProperty("row_starts") int rowStarts,
      List<Lookup> addresses,
      List<Disagreement> disagreements) {

    /** The ELF build id (hex), Mach-O UUID or PE debug id (the PDB's) of the binary. */
    public String id() {
      if (identity.containsKey("debug_id")) {
        return identity.get("debug_id");
      }
      return identity.containsKey("build_id") ? identity.get("build_id") : identity.get("uuid");
    }
  }

  /** An address with an expected answer: frames innermost first, and the tools that gave it. */
  public record Lookup(
      String address, List<Frame> frames, List<String> agreed, Map<String, List<Frame>> others) {

    public long addressValue() {
      return Long.parseUnsignedLong(address.substring(2), 16);
    }

    /** True when a non-LLVM tool (addr2line, eu-addr2line) is among those that agreed. */
    public boolean agreedBeyondLlvm() {
      return agreed.stream().anyMatch(t -> !t.startsWith("llvm-"));
    }
  }

  /**
   * An address where no answer had two votes, or two answers tied: every tool's frames. {@code
   * kind} names a known cause where the generator recognised one (Windows corpus: {@code
   * "two rows at one offset"}), else null.
   */
  public record Disagreement(String address, Map<String, List<Frame>> answers, String kind) {

    public long addressValue() {
      return Long.parseUnsignedLong(address.substring(2), 16);
    }
  }

  /**
   * A frame. {@code function} is spelled as the first agreeing tool printed it; {@code
   * functionKey} is the base name the tools were compared by (no qualifiers, template arguments,
   * parameters or clone suffixes); {@code file} is normalised; {@code line} 0 when unknown.
   */
  public record Frame(
      String function, @JsonProperty("function_key") String functionKey, String file, int line) {}
}
