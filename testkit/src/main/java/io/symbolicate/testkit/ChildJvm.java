package io.symbolicate.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A {@code main} class of this JVM's class path run in a child JVM (an app instance, a loader),
 * its output in a log file, so that a fault test can kill it with SIGKILL (nothing flushed,
 * committed or said goodbye to) or stop it with SIGTERM. The child halts by itself when this JVM
 * dies ({@link ChildJvmMain}), and a shutdown hook kills it on an orderly exit.
 */
public final class ChildJvm implements AutoCloseable {
  private final String name;
  private final Process process;
  private final Path log;
  private final Thread shutdownHook;

  private ChildJvm(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.shutdownHook = new Thread(process::destroyForcibly, "child-jvm-killer-" + name);
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Starts {@code mainClass} with {@code args}, JVM options and extra environment variables;
   * its output goes to {@code logDir/<name>.log} (appended).
   */
  public static ChildJvm start(
      String name,
      List<String> jvmOptions,
      Map<String, String> env,
      Path logDir,
      String mainClass,
      List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.addAll(
        List.of(
            "-Djava.net.preferIPv4Stack=true",
            "-cp",
            System.getProperty("java.class.path"),
            ChildJvmMain.class.getName(),
            mainClass));
    cmd.addAll(args);
    Path log = logDir.resolve(name + ".log");
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    pb.environment().putAll(env);
    try {
      return new ChildJvm(name, pb.start(), log);
    } catch (IOException e) {
      throw new UncheckedIOException("could not start " + name, e);
    }
  }

  public String name() {
    return name;
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public Path log() {
    return log;
  }

  /** SIGKILL, and waits until the process is gone. */
  public void kill() {
    process.destroyForcibly();
    try {
      process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * SIGTERM (the JVM's shutdown hooks run: a clean close); kills it if it is still alive after
   * {@code timeout}. SIGTERM goes through the handle: {@link Process#destroy()} would also close
   * the child's stdin, which {@link ChildJvmMain} takes as this JVM's death and halts at once.
   */
  public void stop(Duration timeout) {
    process.toHandle().destroy();
    try {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        kill();
      }
    } catch (InterruptedException e) {
      kill();
      Thread.currentThread().interrupt();
    }
  }

  /** The last lines of the child's log, for a failure's report. */
  public String logTail(int lines) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException | RuntimeException e) {
      return "(no log: " + e + ")";
    }
  }

  /** Stops the child if it still runs (SIGTERM, then SIGKILL after 30 s). */
  @Override
  public void close() {
    if (process.isAlive()) {
      stop(Duration.ofSeconds(30));
    }
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs anyway
    }
  }
}
