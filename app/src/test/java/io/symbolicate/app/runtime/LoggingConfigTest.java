package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.status.Status;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The production logging (app/src/main/resources/logback.xml, docs/operations.md "Logging"):
 * SLF4J is bound to logback on the app's classpath, text by default, one JSON object a line with
 * the json format, and the levels the launcher's variables choose. Each case configures its own
 * logback context from the production file and reads what it writes to standard error.
 */
class LoggingConfigTest {
  static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void theAppsClasspathLogsThroughLogbackNotSlf4jSimple() {
    assertThat(LoggerFactory.getILoggerFactory()).isInstanceOf(LoggerContext.class);
    assertThatThrownBy(() -> Class.forName("org.slf4j.simple.SimpleLogger"))
        .isInstanceOf(ClassNotFoundException.class);
  }

  @Test
  void textIsTheDefault() throws Exception {
    List<String> lines = run(Map.of(), log -> log.info("loaded {} tables", 3));
    assertThat(lines).hasSize(1);
    assertThat(lines.get(0))
        .matches(
            "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(Z|[+-]\\d\\d:\\d\\d) INFO  \\[[^]]+] "
                + "io\\.symbolicate\\.app\\.LoggingCheck - loaded 3 tables");
  }

  @Test
  void jsonWritesOneObjectALineForLogCollectors() throws Exception {
    List<String> lines =
        run(
            Map.of("symbolicator.log.format", "json"),
            log -> {
              log.info("loaded {} tables", 3);
              log.error("fetch failed", new IllegalStateException("S3 said 503"));
            });
    assertThat(lines).hasSize(2);
    JsonNode info = JSON.readTree(lines.get(0));
    assertThat(info.path("level").asText()).isEqualTo("INFO");
    assertThat(info.path("loggerName").asText()).isEqualTo("io.symbolicate.app.LoggingCheck");
    assertThat(info.path("formattedMessage").asText()).isEqualTo("loaded 3 tables");
    assertThat(info.path("timestamp").asLong()).isPositive();
    assertThat(info.path("threadName").asText()).isNotEmpty();
    JsonNode error = JSON.readTree(lines.get(1));
    assertThat(error.path("level").asText()).isEqualTo("ERROR");
    assertThat(error.path("throwable").path("className").asText())
        .isEqualTo("java.lang.IllegalStateException");
    assertThat(error.path("throwable").path("message").asText()).isEqualTo("S3 said 503");
  }

  @Test
  void theLevelsFollowTheSettings() throws Exception {
    Consumer<Logger> logs =
        log -> {
          log.info("app info");
          log.warn("app warn");
        };
    assertThat(run(Map.of(), logs)).hasSize(2);
    assertThat(run(Map.of("symbolicator.log.level", "warn"), logs))
        .singleElement()
        .asString()
        .endsWith("app warn");

    LoggerContext ctx = configured(Map.of());
    assertThat(ctx.getLogger("org.apache.kafka.clients.NetworkClient").isInfoEnabled())
        .as("Kafka at warn by default")
        .isFalse();
    assertThat(ctx.getLogger("org.apache.kafka.clients.NetworkClient").isWarnEnabled()).isTrue();
    ctx = configured(Map.of("symbolicator.log.kafka.level", "error"));
    assertThat(ctx.getLogger("org.apache.kafka.streams.KafkaStreams").isWarnEnabled()).isFalse();
  }

  @Test
  void oneShotCommandsLogTheTextLineWithoutTheXml() throws Exception {
    Consumer<Logger> logs =
        log -> {
          log.info("app info");
          log.warn("loaded {} tables", 3);
          log.error("fetch failed", new IllegalStateException("S3 said 503"));
        };
    // the same line as logback.xml's text format writes
    List<String> xml = run(Map.of("symbolicator.log.level", "warn"), logs);
    List<String> code = oneShot(Map.of("symbolicator.log.level", "warn"), logs);
    assertThat(code).hasSize(xml.size()).hasSize(3); // two events and the exception's first line
    for (int i = 0; i < code.size(); i++) {
      assertThat(code.get(i).replaceFirst("^\\S+ ", ""))
          .isEqualTo(xml.get(i).replaceFirst("^\\S+ ", ""));
    }
    assertThat(code.get(0))
        .matches(
            "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(Z|[+-]\\d\\d:\\d\\d) WARN  \\[[^]]+] "
                + "io\\.symbolicate\\.app\\.LoggingCheck - loaded 3 tables");
    // json, or a run without the launcher's mark, is left to logback.xml
    assertThat(oneShot(Map.of("symbolicator.log.format", "json"), logs)).isEmpty();
  }

  /** What the one-shot configurator's context writes to standard error with these -D settings. */
  private static List<String> oneShot(Map<String, String> settings, Consumer<Logger> logging) {
    Map<String, String> all = new HashMap<>(settings);
    all.put(OneShotLogConfigurator.ONE_SHOT, "true");
    Map<String, String> before = new HashMap<>();
    all.keySet().forEach(k -> before.put(k, System.getProperty(k)));
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    try (PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
      all.forEach(System::setProperty);
      System.setErr(capture);
      LoggerContext ctx = new LoggerContext();
      ctx.setMDCAdapter(new LogbackMDCAdapter());
      OneShotLogConfigurator configurator = new OneShotLogConfigurator();
      configurator.setContext(ctx);
      if (configurator.configure(ctx) == Configurator.ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY) {
        logging.accept(ctx.getLogger("io.symbolicate.app.LoggingCheck"));
      }
      ctx.stop();
    } finally {
      System.setErr(err);
      before.forEach(
          (k, v) -> {
            if (v == null) {
              System.clearProperty(k);
            } else {
              System.setProperty(k, v);
            }
          });
    }
    return Arrays.stream(captured.toString(StandardCharsets.UTF_8).split("\n"))
        .filter(l -> !l.isBlank() && !l.startsWith("\tat "))
        .toList();
  }

  @Test
  void anUnknownFormatIsReportedAtStartUp() throws Exception {
    LoggerContext ctx = configured(Map.of("symbolicator.log.format", "xml"));
    assertThat(ctx.getStatusManager().getCopyOfStatusList())
        .filteredOn(s -> s.getLevel() >= Status.WARN)
        .map(Status::getMessage)
        .anyMatch(m -> m.contains("symbolicator/logback-xml.xml"));
  }

  /** A logback context configured from the production file with these settings (as -D would give them). */
  static LoggerContext configured(Map<String, String> settings) throws Exception {
    LoggerContext ctx = new LoggerContext();
    ctx.setMDCAdapter(
        new LogbackMDCAdapter()); // as logback's own start-up gives its default context
    settings.forEach(ctx::putProperty);
    JoranConfigurator j = new JoranConfigurator();
    j.setContext(ctx);
    URL production = LoggingConfigTest.class.getClassLoader().getResource("logback.xml");
    assertThat(production).as("the app's logback.xml").isNotNull();
    j.doConfigure(production);
    return ctx;
  }

  /** What a logger of the configured context writes to standard error, line by line. */
  static List<String> run(Map<String, String> settings, Consumer<Logger> logging) throws Exception {
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    LoggerContext ctx;
    try (PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
      System.setErr(capture);
      ctx = configured(settings);
      logging.accept(ctx.getLogger("io.symbolicate.app.LoggingCheck"));
      ctx.stop();
    } finally {
      System.setErr(err);
    }
    return Arrays.stream(captured.toString(StandardCharsets.UTF_8).split("\n"))
        .filter(l -> !l.isBlank() && !l.startsWith("\tat "))
        .toList();
  }
}
