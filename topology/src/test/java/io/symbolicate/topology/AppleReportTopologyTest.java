package io.symbolicate.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.ErrorKind;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbolication.apple.AppleReportEventsTest;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKeys;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.table.TablePage;
import io.symbolicate.topology.config.TopologyConfig;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inline Apple reports through the real topology: read in the decode stage, then the ordinary
 * native path against a store holding the app's symbols; a report that does not parse is a dead
 * letter ({@code unreadable_attachment}) with the parser's reason and the raw bytes.
 */
class AppleReportTopologyTest {
  @TempDir Path stateDir;

  /** Symbols for the report's app image (UUID 2d903291-...), around its two frames. */
  static final String APP_SYM =
      """
      MODULE mac x86_64 2D903291397D3D14BFCA52C7FB8C5E000 YetAnotherMac
      FILE 0 /src/Game.cpp
      FUNC 522200 200 0 a_function_here
      522200 200 10 0
      FUNC 522900 100 0 tick_game
      522900 100 42 0
      """;

  static final ModuleRef APP =
      new ModuleRef("global", TableKind.NATIVE, "YetAnotherMac/2D903291397D3D14BFCA52C7FB8C5E000");

  private TopologyTestDriver driver;
  private TestInputTopic<byte[], byte[]> raw;
  private TestInputTopic<byte[], byte[]> tables;
  private TestOutputTopic<String, SymbolicatedEvent> out;
  private TestOutputTopic<byte[], DeadLetter> dlq;

  @BeforeEach
  void start() {
    TopologyConfig cfg = TopologyConfig.defaults();
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "apple-test");
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    driver =
        new TopologyTestDriver(
            SymbolicationTopology.build(cfg, TestPlatforms.steps(), new PageCache(1 << 20)), p);
    var bytes = Serdes.ByteArray().serializer();
    raw = driver.createInputTopic(cfg.topics().raw(), bytes, bytes);
    tables = driver.createInputTopic(cfg.topics().tables(), bytes, bytes);
    out =
        driver.createOutputTopic(
            cfg.topics().symbolicated(),
            Serdes.String().deserializer(),
            WireSerdes.symbolicatedEvent().deserializer());
    dlq =
        driver.createOutputTopic(
            cfg.topics().dlq(),
            Serdes.ByteArray().deserializer(),
            WireSerdes.deadLetter().deserializer());
  }

  @AfterEach
  void stop() {
    driver.close();
  }

  /** Publishes a table as the loader does: its pages, then its state. */
  static void publish(TestInputTopic<byte[], byte[]> tables, ModuleRef ref, CompactTable t) {
    for (TablePage page : t.pages()) {
      tables.pipeInput(TableKeys.page(ref, 1, page.firstKey()), page.bytes());
    }
    tables.pipeInput(
        TableKeys.state(ref),
        WireSerdes.moduleState()
            .encode(
                ModuleState.newBuilder()
                    .setModule(ref.toString())
                    .setStatus(TableStatus.found)
                    .setFormatVersion(t.formatVersion())
                    .setGeneration(1)
                    .setHeader(ByteBuffer.wrap(t.header()))
                    .setPageCount(t.pages().size())
                    .setPageKeys(t.pages().stream().map(TablePage::firstKey).toList())
                    .setTableBytes(t.encodedSize())
                    .setSource("test")
                    .setMessage(null)
                    .setUpdatedAt(Instant.now())
                    .build()));
  }

  static CompactTable appTable() throws Exception {
    return NativeSymbols.convert(
        new ByteArrayInputStream(APP_SYM.getBytes(StandardCharsets.UTF_8)),
        NativeSymbols.Options.defaults());
  }

  static byte[] report() throws Exception {
    return Files.readAllBytes(AppleReportEventsTest.SENTRY_REPORT);
  }

  private void assertSymbolicated(SymbolicatedEvent e, String id) {
    assertThat(e.getEvent().getEventId()).isEqualTo(id);
    assertThat(e.getEvent().getNative$().getModules()).hasSize(5);
    assertThat(e.getModules().get(0).getStatus()).isEqualTo(ModuleStatus.found);
    assertThat(e.getModules().subList(1, 5)).allMatch(m -> m.getStatus() == ModuleStatus.unused);
    List<SymbolicatedFrame> t0 = e.getStacks().get(0).getFrames();
    assertThat(t0).hasSize(14);
    assertThat(t0.get(10).getStatus()).isEqualTo(FrameStatus.symbolicated);
    assertThat(t0.get(10).getFunction()).isEqualTo("tick_game");
    assertThat(t0.get(10).getLine()).isEqualTo(42);
    assertThat(t0.get(10).getFile()).isEqualTo("/src/Game.cpp");
    assertThat(t0.get(11).getFunction()).isEqualTo("a_function_here");
    assertThat(t0.get(0).getStatus()).isEqualTo(FrameStatus.unknown_module);
    assertThat(e.getStacks().get(1).getFrames()).hasSize(3);
    assertThat(e.getEvent().getNative$().getThreads().get(1).getCrashed()).isTrue();
    assertThat(e.getEvent().getAttributes()).containsEntry("reason", "SIGSEGV").containsKey("os");
    assertThat(e.getMissingSymbols()).isEmpty();
  }

  @Test
  void inlineReportsAsAvroBytesAndJsonTextAreSymbolicated() throws Exception {
    publish(tables, APP, appTable());
    // in the global scope (a private scope's event would wait for its own copy first)
    CrashEvent avro =
        CrashEvent.newBuilder(AppleReportEventsTest.carrying(AppleReportEventsTest.data(report())))
            .setScope("global")
            .build();
    raw.pipeInput(null, WireSerdes.crashEvent().encode(avro));
    String json =
        """
        {"event_id": "apple-json", "platform": "native",
         "native": {"apple_crash_report": {"text": %s}}}
        """
            .formatted(
                new com.fasterxml.jackson.databind.ObjectMapper()
                    .writeValueAsString(new String(report(), StandardCharsets.UTF_8)));
    raw.pipeInput(null, json.getBytes(StandardCharsets.UTF_8));
    String base64 =
        """
        {"event_id": "apple-b64", "platform": "native",
         "native": {"apple_crash_report": {"data": "%s"}}}
        """
            .formatted(Base64.getEncoder().encodeToString(report()));
    raw.pipeInput(null, base64.getBytes(StandardCharsets.UTF_8));

    List<SymbolicatedEvent> got = out.readValuesToList();
    assertThat(got)
        .extracting(g -> g.getEvent().getEventId())
        .containsExactly("apple-1", "apple-json", "apple-b64");
    assertSymbolicated(got.get(0), "apple-1");
    assertSymbolicated(got.get(1), "apple-json");
    assertSymbolicated(got.get(2), "apple-b64");
    assertThat(got.get(0).getEvent().getAttributes()).containsEntry("source", "test");
    assertThat(dlq.isEmpty()).isTrue();
  }

  @Test
  void unreadableReportsAreDeadLettersWithTheParsersReason() throws Exception {
    CrashEvent garbage =
        AppleReportEventsTest.carrying(AppleReportEventsTest.text("hello\nworld\n"));
    byte[] bytes = WireSerdes.crashEvent().encode(garbage);
    raw.pipeInput("k".getBytes(StandardCharsets.UTF_8), bytes);
    CrashEvent binary =
        AppleReportEventsTest.carrying(
            AppleReportEventsTest.data(new byte[] {0, 1, 2, (byte) 0xff}));
    raw.pipeInput(null, WireSerdes.crashEvent().encode(binary));
    // too many frames for the event once read: max.frames.per.event still holds
    StringBuilder big = new StringBuilder(new String(report(), StandardCharsets.UTF_8));
    int at = big.indexOf("Thread 1 Crashed");
    StringBuilder frames = new StringBuilder("Thread 7:\n");
    for (int i = 0; i < 6_000; i++) {
      frames.append(i).append(" A 0x10 f\n");
    }
    StringBuilder threads = new StringBuilder();
    for (int t = 0; t < 4; t++) {
      threads
          .append(frames.toString().replace("Thread 7:", "Thread " + (7 + t) + ":"))
          .append('\n');
    }
    big.insert(at, threads);
    raw.pipeInput(
        null,
        WireSerdes.crashEvent()
            .encode(AppleReportEventsTest.carrying(AppleReportEventsTest.text(big.toString()))));

    List<DeadLetter> dead = dlq.readValuesToList();
    assertThat(dead).hasSize(3);
    assertThat(dead.get(0).getErrorKind()).isEqualTo(ErrorKind.unreadable_attachment);
    assertThat(dead.get(0).getMessage())
        .startsWith("native.apple_crash_report: ")
        .contains("not an Apple crash report");
    assertThat(dead.get(0).getEventId()).isEqualTo("apple-1");
    assertThat(dead.get(0).getOriginalValue().array()).isEqualTo(bytes);
    assertThat(dead.get(1).getErrorKind()).isEqualTo(ErrorKind.unreadable_attachment);
    assertThat(dead.get(2).getErrorKind()).isEqualTo(ErrorKind.too_large);
    assertThat(out.isEmpty()).isTrue();
  }
}
