package io.symbolicate.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.symbolicate.connectors.loader.jvm.JvmTableConverter;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.MissingSymbols;
import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.SymbolRequest;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.symbols.jvm.JvmSourceBundle;
import io.symbolicate.symbols.sources.SourceBundle;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKeys;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.topology.config.TopologyConfig;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
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
 * JVM source context through the real topology: a JSON event naming a mapping and a source bundle
 * parks until both tables are published (the bundle asked for as the JVM module {@code
 * source/<uuid>}), then comes out retraced with the bundle file's own lines; a missing bundle
 * leaves the frames retraced, without context, and is reported missing.
 */
class JvmSourceTopologyTest {
  @TempDir Path stateDir;

  static final Instant T0 = Instant.parse("2026-12-03T12:00:00Z");
  static final String MAPPING_ID = "0f6a1b2c-3d4e-4f50-8a61-72839405a6b7";
  static final String BUNDLE_ID = "d832c2fb-c545-425b-b673-613a133586be";
  static final ModuleRef MAPPING = new ModuleRef("global", TableKind.JVM, MAPPING_ID);
  static final ModuleRef BUNDLE =
      new ModuleRef("global", TableKind.JVM, JvmSourceBundle.moduleKey(BUNDLE_ID));

  static final String[] CHECKOUT = {
    "package io.example",
    "",
    "class Checkout {",
    "    fun pay() {",
    "        Helper().charge()",
    "    }",
    "",
    "    class Helper {",
    "        fun charge() {",
    "            error(\"declined\")",
    "        }",
    "    }",
    "}"
  };

  static final String MAPPING_TXT =
      "io.example.Checkout$Helper -> a.b:\n"
          + "# {\"id\":\"sourceFile\",\"fileName\":\"Checkout.kt\"}\n"
          + "    3:3:void charge():10:10 -> b\n";

  static final String EVENT =
      """
      {"event_id": "%s", "platform": "jvm", "jvm": {
        "modules": [{"type": "proguard", "uuid": "%s"}, {"type": "source", "uuid": "%s"}],
        "exceptions": [{"type": "a", "module": "io.example", "frames": [
          {"module": "a.b", "function": "b", "lineno": 3, "filename": "SourceFile"}]}]}}
      """;

  private TopologyTestDriver driver;
  private TestInputTopic<byte[], byte[]> raw;
  private TestInputTopic<byte[], byte[]> tables;
  private TestOutputTopic<String, SymbolicatedEvent> out;
  private TestOutputTopic<String, SymbolRequest> requests;
  private TestOutputTopic<String, MissingSymbols> missing;

  @BeforeEach
  void start() {
    TopologyConfig cfg =
        TopologyConfig.defaults()
            .withParking(
                new TopologyConfig.Parking(
                    Duration.ofSeconds(30),
                    Duration.ofMillis(100),
                    1000,
                    Duration.ofSeconds(5),
                    Duration.ofHours(1)));
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "jvm-source-test");
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    driver =
        new TopologyTestDriver(
            SymbolicationTopology.build(cfg, TestPlatforms.steps(), new PageCache(1 << 20)), p, T0);
    var bytes = Serdes.ByteArray().serializer();
    raw = driver.createInputTopic(cfg.topics().raw(), bytes, bytes);
    tables = driver.createInputTopic(cfg.topics().tables(), bytes, bytes);
    out =
        driver.createOutputTopic(
            cfg.topics().symbolicated(),
            Serdes.String().deserializer(),
            WireSerdes.symbolicatedEvent().deserializer());
    requests =
        driver.createOutputTopic(
            cfg.topics().requests(),
            Serdes.String().deserializer(),
            WireSerdes.symbolRequest().deserializer());
    missing =
        driver.createOutputTopic(
            cfg.topics().missing(),
            Serdes.String().deserializer(),
            WireSerdes.missingSymbols().deserializer());
  }

  @AfterEach
  void stop() {
    driver.close();
  }

  static byte[] bundle() throws IOException {
    String zipPath = "files/_/_/io/example/Checkout.jvm";
    String manifest =
        "{\"org\":\"o\",\"project\":\"p\",\"debug_id\":\""
            + BUNDLE_ID
            + "\",\"files\":{\""
            + zipPath
            + "\":{\"url\":\"~/io/example/Checkout.jvm\"}}}";
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    o.write(new byte[] {'S', 'Y', 'S', 'B', 2, 0, 0, 0});
    try (ZipOutputStream zip = new ZipOutputStream(o)) {
      zip.putNextEntry(new ZipEntry(zipPath));
      zip.write(String.join("\n", CHECKOUT).getBytes(StandardCharsets.UTF_8));
      zip.putNextEntry(new ZipEntry("manifest.json"));
      zip.write(manifest.getBytes(StandardCharsets.UTF_8));
    }
    return o.toByteArray();
  }

  private void send(String id) {
    raw.pipeInput(
        null, EVENT.formatted(id, MAPPING_ID, BUNDLE_ID).getBytes(StandardCharsets.UTF_8));
  }

  private void publishMapping() throws Exception {
    AppleReportTopologyTest.publish(
        tables,
        MAPPING,
        new JvmTableConverter()
            .convert(
                new ByteArrayInputStream(MAPPING_TXT.getBytes(StandardCharsets.UTF_8)), 1 << 20));
  }

  static List<String> lines(int from, int to) {
    return Arrays.asList(CHECKOUT).subList(from - 1, to);
  }

  @Test
  void anEventParksUntilItsBundleIsThereAndComesOutWithContext() throws Exception {
    send("with-bundle");
    assertThat(out.isEmpty()).as("parked until the tables are there").isTrue();
    assertThat(requests.readValuesToList())
        .extracting(SymbolRequest::getPlatform, SymbolRequest::getModuleKey)
        .containsExactlyInAnyOrder(
            tuple(Platform.jvm, MAPPING_ID), tuple(Platform.jvm, "source/" + BUNDLE_ID));
    publishMapping();
    AppleReportTopologyTest.publish(
        tables,
        BUNDLE,
        JvmSourceBundle.table(SourceBundle.read(bundle()), 1 << 20, new ArrayList<>()));
    driver.advanceWallClockTime(Duration.ofMillis(200));

    List<SymbolicatedEvent> got = out.readValuesToList();
    assertThat(got).hasSize(1);
    SymbolicatedEvent e = got.get(0);
    assertThat(e.getModules())
        .extracting(m -> m.getKey(), m -> m.getStatus())
        .containsExactly(
            tuple(MAPPING_ID, ModuleStatus.found),
            tuple("source/" + BUNDLE_ID, ModuleStatus.found));
    SymbolicatedFrame f = e.getStacks().get(0).getFrames().get(0);
    assertThat(f.getStatus()).isEqualTo(FrameStatus.symbolicated);
    assertThat(f.getClassName()).isEqualTo("io.example.Checkout$Helper");
    assertThat(f.getLine()).isEqualTo(10);
    assertThat(f.getPreContext().stream().map(CharSequence::toString).toList())
        .isEqualTo(lines(5, 9));
    assertThat(String.valueOf(f.getContextLine())).isEqualTo(CHECKOUT[9]);
    assertThat(f.getPostContext().stream().map(CharSequence::toString).toList())
        .isEqualTo(lines(11, 13));
    assertThat(missing.isEmpty()).isTrue();
  }

  @Test
  void aMissingBundleLeavesTheRetraceAndIsReported() throws Exception {
    publishMapping();
    tables.pipeInput(
        TableKeys.state(BUNDLE),
        WireSerdes.moduleState()
            .encode(
                ModuleState.newBuilder()
                    .setModule(BUNDLE.toString())
                    .setStatus(TableStatus.missing)
                    .setFormatVersion(0)
                    .setGeneration(0)
                    .setHeader(null)
                    .setPageCount(0)
                    .setPageKeys(List.of())
                    .setTableBytes(0)
                    .setSource("test")
                    .setMessage("not found")
                    .setUpdatedAt(T0)
                    .setLastUsed(null)
                    .setRetryAfter(T0.plus(Duration.ofHours(1)))
                    .build()));
    send("no-bundle");
    List<SymbolicatedEvent> got = out.readValuesToList();
    assertThat(got).hasSize(1);
    SymbolicatedFrame f = got.get(0).getStacks().get(0).getFrames().get(0);
    assertThat(f.getStatus()).isEqualTo(FrameStatus.symbolicated);
    assertThat(f.getLine()).isEqualTo(10);
    assertThat(f.getContextLine()).isNull();
    assertThat(got.get(0).getModules().get(1).getStatus()).isEqualTo(ModuleStatus.missing);
    assertThat(got.get(0).getMissingSymbols()).containsExactly("source/" + BUNDLE_ID);
    assertThat(missing.readValuesToList())
        .extracting(MissingSymbols::getModule)
        .contains("source/" + BUNDLE_ID);
  }
}
