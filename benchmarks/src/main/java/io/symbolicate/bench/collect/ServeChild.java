package io.symbolicate.bench.collect;

import io.symbolicate.testkit.ChildJvm;
import io.symbolicate.testkit.EmbeddedS3;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code symbolicator serve} in a child JVM of its own, on this JVM's class path, so that its
 * heap, collector and JIT are apart from the benchmark's clients, as in a deployment (the machine's
 * cores are still shared). Its standard output and error go to {@code <logDir>/<name>.log}, its
 * collector's log to {@code <name>-gc.log} beside it. The child is always ended: by {@link
 * #close()}, by {@link ChildJvm}'s shutdown hook on Ctrl-C, and by the child itself when this JVM
 * dies without hooks (its stdin closes).
 */
public final class ServeChild implements AutoCloseable {
  /** What {@code serve} prints on stdout once it serves (ServeCommand). */
  static final String SERVING = "symbolicator: serving ";

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

  private final ChildJvm jvm;
  private final URI uri;

  private ServeChild(ChildJvm jvm, URI uri) {
    this.jvm = jvm;
    this.uri = uri;
  }

  /**
   * The JVM options of {@code deploy/base/serve.yaml}'s container ({@code JAVA_OPTS} there, the
   * entrypoint's {@code -XX:+ExitOnOutOfMemoryError}).
   */
  public static final List<String> DEPLOYMENT_JVM_OPTIONS =
      List.of(
          "-Xmx1g",
          "-XX:-G1UseAdaptiveIHOP",
          "-XX:InitiatingHeapOccupancyPercent=75",
          "-XX:+ExitOnOutOfMemoryError");

  /**
   * Starts {@code serve --set key=value ...} and waits until it prints where it serves.
   *
   * @param jvmOptions heap and collector options (the logging and the GC log are added)
   * @param logLevel the app's log level ({@code symbolicator.log.level}), info in a container
   */
  public static ServeChild start(
      String name,
      Map<String, String> settings,
      List<String> jvmOptions,
      String logLevel,
      Path logDir)
      throws IOException {
    Files.createDirectories(logDir);
    List<String> opts = new ArrayList<>(jvmOptions);
    opts.add("-Xlog:gc:file=" + logDir.resolve(name + "-gc.log") + ":uptime");
    opts.add("-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.symbolicate.schema");
    opts.add("-Dsymbolicator.log.level=" + logLevel);
    opts.add("-Dsymbolicator.log.kafka.level=warn");
    int jdk = Runtime.version().feature();
    if (jdk >= 22) {
      opts.add("--enable-native-access=ALL-UNNAMED"); // as ./symbolicator does
    }
    if (jdk >= 23) {
      opts.add("--sun-misc-unsafe-memory-access=allow");
    }
    List<String> args = new ArrayList<>(List.of("serve"));
    settings.forEach(
        (k, v) -> {
          args.add("--set");
          args.add(k + "=" + v);
        });
    ChildJvm jvm =
        ChildJvm.start(
            name,
            opts,
            Map.of(
                "AWS_ACCESS_KEY_ID",
                EmbeddedS3.ACCESS_KEY,
                "AWS_SECRET_ACCESS_KEY",
                EmbeddedS3.SECRET_KEY,
                "AWS_REGION",
                "us-east-1"),
            logDir,
            "io.symbolicate.app.cli.SymbolicatorCli",
            args);
    try {
      return new ServeChild(jvm, awaitServing(jvm));
    } catch (IOException | RuntimeException e) {
      jvm.kill();
      jvm.close();
      throw e;
    }
  }

  /** Reads the child's log until {@code serve} says where it serves. */
  private static URI awaitServing(ChildJvm jvm) throws IOException {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (Files.exists(jvm.log())) {
        for (String line : Files.readAllLines(jvm.log(), StandardCharsets.UTF_8)) {
          int at = line.indexOf(SERVING);
          if (at >= 0) {
            return URI.create(line.substring(at + SERVING.length()).strip());
          }
        }
      }
      if (!jvm.isAlive()) {
        throw new IOException("serve exited before serving:\n" + jvm.logTail(30));
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while waiting for serve");
      }
    }
    throw new IOException(
        "serve did not serve within " + READY_TIMEOUT.toSeconds() + " s:\n" + jvm.logTail(30));
  }

  public URI uri() {
    return uri;
  }

  public Path log() {
    return jvm.log();
  }

  public long pid() {
    return jvm.pid();
  }

  public boolean isAlive() {
    return jvm.isAlive();
  }

  /** SIGTERM (serve closes cleanly), SIGKILL after 30 s. */
  @Override
  public void close() {
    jvm.close();
  }
}
