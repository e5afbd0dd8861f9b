package io.symbolicate.app.runtime;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code symbolicator run} in a child JVM of the test's class path, so that it can be killed with
 * SIGKILL (open transactions, a dirty state directory and a group member that never says goodbye
 * are left behind, as after a crash or an OOM kill).
 */
final class ChildApp implements AutoCloseable {
  private final Process process;
  final String name;
  final Path log;

  private ChildApp(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  /**
   * Starts {@code run} with the given settings; {@code name} is its {@code client.id}, so its
   * main consumer shows as {@code <name>-StreamThread-1-consumer} in the group.
   */
  static ChildApp start(String name, String bootstrap, Path dir, List<String> settings)
      throws IOException {
    return start(name, bootstrap, dir, settings, List.of());
  }

  /** As above, with extra JVM options (system properties: logging, say). */
  static ChildApp start(
      String name, String bootstrap, Path dir, List<String> settings, List<String> jvmOptions)
      throws IOException {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m"));
    cmd.addAll(jvmOptions);
    cmd.addAll(
        List.of(
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
            "-Dorg.slf4j.simpleLogger.showDateTime=true",
            "-Dorg.slf4j.simpleLogger.log.org.apache.kafka.streams=info",
            // the embedded S3 server's credentials, when a test set them for its own clients
            "-Daws.accessKeyId=" + System.getProperty("aws.accessKeyId", ""),
            "-Daws.secretAccessKey=" + System.getProperty("aws.secretAccessKey", ""),
            "-cp",
            System.getProperty("java.class.path"),
            "io.symbolicate.app.cli.SymbolicatorCli",
            "run",
            "-b",
            bootstrap,
            "--set",
            "streams.client.id=" + name));
    for (String s : settings) {
      cmd.add("--set");
      cmd.add(s);
    }
    Path log = dir.resolve(name + "-" + System.nanoTime() + ".log");
    Process p =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new ChildApp(name, p, log);
  }

  /** SIGKILL, and waits for the process to be gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  File logFile() {
    return log.toFile();
  }

  /** The last lines of the instance's log, for a failed test's report. */
  void printLogTail(PrintStream out) {
    try {
      List<String> lines = Files.readAllLines(log);
      out.println("---- " + name + " (" + log + ") ----");
      lines.subList(Math.max(0, lines.size() - 60), lines.size()).forEach(out::println);
    } catch (IOException e) {
      out.println("---- " + name + ": no log: " + e);
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      kill();
    }
  }
}
