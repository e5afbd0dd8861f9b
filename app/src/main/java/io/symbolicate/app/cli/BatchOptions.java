package io.symbolicate.app.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The options of a command that takes many inputs at once ({@link Batch}). */
final class BatchOptions {
  @Option(
      names = "--threads",
      paramLabel = "N",
      description = "inputs worked on at once (default: the cores)")
  int threads;

  @Option(
      names = "--output-dir",
      paramLabel = "DIR",
      description = "write one report per input into DIR instead of JSON lines on stdout")
  Path outputDir;

  @Option(
      names = "--fail-on-error",
      description = "exit with 1 when an input of several fails (default: 0, with error lines)")
  boolean failOnError;

  Batch.Options options(String suffix, boolean jsonReports) {
    return new Batch.Options(Batch.threads(threads), outputDir, suffix, jsonReports, failOnError);
  }
}
