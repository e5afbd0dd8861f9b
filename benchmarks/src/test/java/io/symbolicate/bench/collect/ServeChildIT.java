package io.symbolicate.bench.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench collector --server child}: serve in a JVM of its own, always ended. */
class ServeChildIT {
  /** Small and quick: the test only needs serve to answer. */
  private static final List<String> JVM = List.of("-Xmx256m", "-XX:TieredStopAtLevel=1");

  @Test
  void servesFromItsOwnProcessLogsToTheNamedFileAndIsGoneAfterClose(@TempDir Path dir)
      throws Exception {
    Path symbols = Files.createDirectories(dir.resolve("symbols"));
    ServeChild child =
        ServeChild.start(
            "serve-test",
            Map.of(
                "symbols.dir", symbols.toString(),
                "http.port", "0",
                "http.cache.dir", dir.resolve("cache").toString()),
            JVM,
            "info",
            dir.resolve("logs"));
    long pid = child.pid();
    try {
      assertThat(pid).isNotEqualTo(ProcessHandle.current().pid());
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(child.uri().resolve("/health")).build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(child.log()).isEqualTo(dir.resolve("logs/serve-test.log"));
      assertThat(Files.readString(child.log())).contains(ServeChild.SERVING + child.uri());
      assertThat(dir.resolve("logs/serve-test-gc.log")).exists();
    } finally {
      child.close();
    }
    assertThat(child.isAlive()).isFalse();
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
  }

  @Test
  void aServeThatCannotStartIsReportedWithItsLogAndLeavesNoProcess(@TempDir Path dir) {
    // no symbol source: serve refuses to start
    assertThatThrownBy(
            () -> ServeChild.start("serve-bad", Map.of(), JVM, "info", dir.resolve("logs")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("serve exited before serving")
        .hasMessageContaining("no symbol source");
    assertThat(
            ProcessHandle.current()
                .children()
                .filter(p -> p.info().commandLine().orElse("").contains("serve-bad"))
                .filter(ProcessHandle::isAlive))
        .isEmpty();
  }
}
