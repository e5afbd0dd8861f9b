package io.symbolicate.topology;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.connectors.loader.TableConverter;
import io.symbolicate.connectors.loader.dotnet.DotnetModuleLocator;
import io.symbolicate.connectors.loader.dotnet.DotnetTableConverter;
import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.connectors.source.FileSystemSource;
import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.MissingSymbols;
import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.SymbolRequest;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.schema.json.RecordJson;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.symbols.dotnet.DotnetTable;
import io.symbolicate.symbols.dotnet.PortablePdb;
import io.symbolicate.symbols.id.DebugFileLayout;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKeys;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.testing.SharedFixtures;
import io.symbolicate.topology.config.TopologyConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * .NET frames through the real topology: Symbolicator's own requests (its integration tests'
 * module lists and frames, as JSON events), parked until the module's Portable PDB table is
 * published, then answered as Symbolicator's snapshots answer them. The tables are found and
 * converted by the loader's .NET locator and converter in Symbolicator's fixture symbol store
 * (symstore layout, {@code <GUID>ffffffff} folders).
 */
class DotnetTopologyTest {
  @TempDir Path stateDir;

  static final Path DIFS = SharedFixtures.fixtures("difs");
  static final Path SYMBOLICATOR = DIFS.resolve("getsentry-symbolicator");
  static final Instant T0 = Instant.parse("2026-12-03T12:00:00Z");

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
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "dotnet-test");
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

  /** Symbolicator's request of one integration test: its modules and stack traces (raw JSON). */
  static List<String> request(String test) throws IOException {
    JsonNode all =
        new ObjectMapper()
            .readTree(SYMBOLICATOR.resolve("extracted-test-expectations.json").toFile());
    for (JsonNode t : all.get("tests")) {
      if (t.get("test").asText().equals(test)) {
        List<String> raw = new ArrayList<>();
        t.get("raw_strings").forEach(s -> raw.add(s.asText()));
        return raw;
      }
    }
    throw new AssertionError("no test " + test);
  }

  /** The request as our JSON event: its modules, and its stack traces as threads. */
  static byte[] event(String id, String test) throws IOException {
    List<String> r = request(test);
    String json =
        "{\"event_id\": \""
            + id
            + "\", \"platform\": \"native\", \"native\": {\"modules\": "
            + r.get(0)
            + ", \"threads\": "
            + r.get(1)
            + "}}";
    return json.getBytes(StandardCharsets.UTF_8);
  }

  /** The frames of a Symbolicator snapshot: each frame's fields, as written (quotes removed). */
  static List<Map<String, String>> snapshotFrames(String test) throws IOException {
    List<String> lines =
        Files.readAllLines(
            SYMBOLICATOR.resolve("snapshots/integration__symbolication__" + test + ".snap"));
    List<Map<String, String>> frames = new ArrayList<>();
    Map<String, String> frame = null;
    for (String line : lines) {
      if (line.startsWith("modules:")) {
        break;
      }
      if (line.startsWith("      - status: ")) {
        frame = new LinkedHashMap<>();
        frames.add(frame);
        line = "        status: " + line.substring("      - status: ".length());
      }
      if (frame != null && line.startsWith("        ") && !line.startsWith("         ")) {
        int colon = line.indexOf(": ");
        if (colon > 0) {
          String v = line.substring(colon + 2);
          if (v.startsWith("\"") && v.endsWith("\"")) {
            v = v.substring(1, v.length() - 1).replace("\\\\", "\\").replace("\\\"", "\"");
          }
          frame.put(line.substring(0, colon).trim(), v);
        }
      }
    }
    return frames;
  }

  /** The module's table as the loader makes it: found by the .NET locator, then converted. */
  static CompactTable loaded(ModuleRef ref) throws Exception {
    DotnetModuleLocator locator =
        new DotnetModuleLocator(s -> List.of(DebugFileLayout.NATIVE, DebugFileLayout.SYMSTORE));
    try (SourceChain sources =
        new SourceChain(List.of(new FileSystemSource(SYMBOLICATOR.resolve("symbols"))))) {
      FetchResult r = locator.fetch(ref, sources);
      assertThat(r)
          .as("%s in Symbolicator's symbol store", ref)
          .isInstanceOf(FetchResult.Found.class);
      FetchResult.Found found = (FetchResult.Found) r;
      try (found) {
        TableConverter conv = new DotnetTableConverter();
        return conv.convert(ref, found, found.body(), 1 << 24, null);
      }
    }
  }

  static ModuleRef dotnet(String key) {
    return new ModuleRef("global", TableKind.DOTNET, key);
  }

  /** Each Symbolicator .NET snapshot with a Portable PDB, through the stream. */
  @Test
  void symbolicatorsDotnetRequestsAnswerAsItsSnapshots() throws Exception {
    Map<String, String> modules =
        Map.of(
            "dotnet_integration", "integration.pdb/0C1033F78632492E91C6C314B72E1920E60B819D",
            "dotnet_embedded_sources",
                "portable-embedded.pdb/B6919861510C48879994943F64F70C37870B9EF9",
            "dotnet_source_links", "source-links.pdb/37E9E8A61A8E404EB93C6902E277FF55A09672E1",
            "dotnet_only_source_links",
                "source-links.pdb/0C380A12822140698565BEE6B3AC196EA596286E");
    List<String> tests = new ArrayList<>(modules.keySet());
    tests.sort(null);
    for (String test : tests) {
      raw.pipeInput(null, event(test, "test_" + test));
    }
    assertThat(out.isEmpty()).as("parked until the tables are there").isTrue();
    List<SymbolRequest> asked = requests.readValuesToList();
    assertThat(asked)
        .extracting(SymbolRequest::getPlatform, SymbolRequest::getModuleKey)
        .containsExactlyInAnyOrderElementsOf(
            modules.values().stream()
                .distinct()
                .map(k -> org.assertj.core.groups.Tuple.tuple(Platform.dotnet, k))
                .toList());
    for (String key : modules.values()) {
      AppleReportTopologyTest.publish(tables, dotnet(key), loaded(dotnet(key)));
    }
    driver.advanceWallClockTime(Duration.ofMillis(200));

    Map<String, SymbolicatedEvent> got = new LinkedHashMap<>();
    out.readValuesToList().forEach(e -> got.put(e.getEvent().getEventId(), e));
    assertThat(got.keySet()).containsExactlyInAnyOrderElementsOf(tests);
    int linked = 0;
    for (String test : tests) {
      SymbolicatedEvent e = got.get(test);
      assertThat(e.getModules()).extracting(m -> m.getStatus()).containsExactly(ModuleStatus.found);
      assertThat(e.getModules().get(0).getKey()).isEqualTo(modules.get(test));
      List<SymbolicatedFrame> frames = e.getStacks().get(0).getFrames();
      List<Map<String, String>> expected = snapshotFrames(test);
      assertThat(frames).as(test).hasSameSizeAs(expected);
      for (int i = 0; i < frames.size(); i++) {
        SymbolicatedFrame f = frames.get(i);
        Map<String, String> x = expected.get(i);
        String where = test + " frame " + i;
        assertThat(x.get("status")).isEqualTo("symbolicated");
        assertThat(f.getStatus()).as(where).isEqualTo(FrameStatus.symbolicated);
        assertThat(f.getOriginalIndex())
            .as(where)
            .isEqualTo(Integer.parseInt(x.get("original_index")));
        assertThat(f.getModuleIndex()).as(where).isZero();
        assertThat(f.getModuleOffset())
            .as(where + " IL offset")
            .isEqualTo(Long.decode(x.get("instruction_addr")));
        assertThat(f.getLine()).as(where).isEqualTo(Integer.parseInt(x.get("lineno")));
        assertThat(f.getFile().toString()).as(where).isEqualTo(x.get("abs_path"));
        assertThat(f.getLang()).as(where).isEqualTo(x.get("lang"));
        assertThat(f.getFunction()).as(where + ": the PDB names no method").isNull();
        // context from the PDB's embedded sources; Source Link URLs are never fetched
        String contextLine = x.containsKey("source_link") ? null : x.get("context_line");
        assertThat(f.getContextLine() == null ? null : f.getContextLine().toString())
            .as(where + " context_line")
            .isEqualTo(contextLine);
        // the URL the PDB's Source Link rules map the document to (since schema v6)
        assertThat(f.getSourceLink()).as(where + " source_link").isEqualTo(x.get("source_link"));
        // the JSON output writes it under the same name (a frame without one: no key in
        // Symbolicator's snapshot; null in ours, as every unset optional field)
        JsonNode json = new ObjectMapper().readTree(RecordJson.write(f, false));
        assertThat(json.has("source_link")).as(where + " JSON has source_link").isTrue();
        assertThat(json.get("source_link").isNull() ? null : json.get("source_link").asText())
            .as(where + " JSON source_link")
            .isEqualTo(x.get("source_link"));
        if (x.containsKey("source_link")) {
          linked++;
        }
      }
    }
    assertThat(linked).as("frames with a source_link in the snapshots").isEqualTo(2);
    assertThat(missing.isEmpty()).isTrue();
  }

  /** symbolic's test_caches.rs test_integration: method 7, IL offset 10 is Program.cs line 81. */
  @Test
  void symbolicsLookupsThroughTheStreamBesideNativeFrames() throws Exception {
    byte[] pdb =
        Files.readAllBytes(DIFS.resolve("getsentry-symbolic/testutils/windows/portable.pdb"));
    String id = PortablePdb.parse(pdb).debugId();
    ModuleRef ref = dotnet("portable.pdb/" + id.replace("-", "").toUpperCase());
    AppleReportTopologyTest.publish(tables, ref, DotnetTable.build(PortablePdb.parse(pdb)));
    // a native module whose table is missing, and .NET frames in every form
    negative(new ModuleRef("global", TableKind.NATIVE, "crashy/0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0"));
    String json =
        """
        {"event_id": "mixed", "platform": "native", "native": {"modules": [
          {"type": "pe_dotnet", "debug_file": "portable.pdb", "debug_id": "%s"},
          {"type": "elf", "debug_file": "crashy", "debug_id": "0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0",
           "image_addr": "0x400000", "image_size": 4096},
          {"type": "pe_dotnet", "debug_file": "nameless.pdb"}],
         "threads": [{"frames": [
          {"addr_mode": "rel:0", "instruction_addr": "0xa", "function_id": "0x7"},
          {"module_index": 0, "module_offset": 10, "function_id": 7},
          {"instruction_addr": "0x400010"},
          {"addr_mode": "rel:0", "instruction_addr": 10},
          {"addr_mode": "rel:0", "instruction_addr": 0, "function_id": 100000},
          {"addr_mode": "rel:7", "instruction_addr": 0, "function_id": 1},
          {"addr_mode": "rel:x", "instruction_addr": 0, "function_id": 1},
          {"addr_mode": "rel:2", "instruction_addr": 0, "function_id": 1}]}]}}
        """
            .formatted(id);
    raw.pipeInput(null, json.getBytes(StandardCharsets.UTF_8));
    List<SymbolicatedEvent> got = out.readValuesToList();
    assertThat(got).hasSize(1);
    SymbolicatedEvent e = got.get(0);
    assertThat(e.getModules())
        .extracting(m -> m.getStatus())
        .containsExactly(ModuleStatus.found, ModuleStatus.missing, ModuleStatus.malformed_request);
    assertThat(e.getModulesInStack())
        .containsExactly(ref.key(), "crashy/0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0");
    List<SymbolicatedFrame> f = e.getStacks().get(0).getFrames();
    assertThat(f)
        .extracting(SymbolicatedFrame::getStatus)
        .containsExactly(
            FrameStatus.symbolicated,
            FrameStatus.symbolicated,
            FrameStatus.missing_symbols,
            FrameStatus.invalid_frame,
            FrameStatus.no_symbol,
            FrameStatus.invalid_frame,
            FrameStatus.invalid_frame,
            FrameStatus.missing_symbols);
    for (SymbolicatedFrame x : f.subList(0, 2)) {
      assertThat(x.getFile().toString()).endsWith("Program.cs");
      assertThat(x.getLine()).isEqualTo(81);
      assertThat(x.getModuleOffset()).isEqualTo(10L);
    }
    assertThat(f.get(2).getModuleOffset()).as("the native frame as before").isEqualTo(0x10L);
    assertThat(f.get(3).getMessage()).contains("function_id");
    assertThat(f.get(5).getMessage()).contains("rel:7 out of range");
    assertThat(f.get(6).getMessage()).contains("neither abs nor rel:N");
  }

  /** A module whose PDB is missing or malformed: the frames say so, the PDB is counted missing. */
  @Test
  void missingAndMalformedPdbsGiveTheFramesTheirStatus() throws Exception {
    raw.pipeInput(null, event("missing", "test_dotnet_integration"));
    ModuleRef ref = dotnet("integration.pdb/0C1033F78632492E91C6C314B72E1920E60B819D");
    negative(ref);
    driver.advanceWallClockTime(Duration.ofMillis(200));
    SymbolicatedEvent e = out.readValue();
    assertThat(e.getModules().get(0).getStatus()).isEqualTo(ModuleStatus.missing);
    assertThat(e.getStacks().get(0).getFrames())
        .hasSize(5)
        .allMatch(x -> x.getStatus() == FrameStatus.missing_symbols && x.getModuleOffset() != null);
    assertThat(e.getMissingSymbols()).containsExactly(ref.key());
    MissingSymbols m = missing.readValuesToList().get(0);
    assertThat(m.getPlatform()).isEqualTo(Platform.dotnet);
    assertThat(m.getModule()).isEqualTo(ref.key());

    tables.pipeInput(
        TableKeys.state(ref),
        WireSerdes.moduleState()
            .encode(
                state(ref, TableStatus.malformed)
                    .setFormatVersion(DotnetTable.FORMAT_VERSION)
                    .setMessage("a Windows PDB, not a Portable PDB")
                    .build()));
    raw.pipeInput(null, event("malformed", "test_dotnet_integration"));
    SymbolicatedEvent bad = out.readValue();
    assertThat(bad.getModules().get(0).getStatus()).isEqualTo(ModuleStatus.malformed);
    assertThat(bad.getStacks().get(0).getFrames())
        .allMatch(x -> x.getStatus() == FrameStatus.malformed_symbols);
  }

  private void negative(ModuleRef ref) {
    tables.pipeInput(
        TableKeys.state(ref),
        WireSerdes.moduleState()
            .encode(
                state(ref, TableStatus.missing)
                    .setRetryAfter(T0.plus(Duration.ofHours(1)))
                    .setMessage("not found")
                    .build()));
  }

  private static ModuleState.Builder state(ModuleRef ref, TableStatus status) {
    return ModuleState.newBuilder()
        .setModule(ref.toString())
        .setStatus(status)
        .setFormatVersion(0)
        .setGeneration(0)
        .setHeader(null)
        .setPageCount(0)
        .setPageKeys(List.of())
        .setTableBytes(0)
        .setSource("test")
        .setMessage(null)
        .setUpdatedAt(T0)
        .setLastUsed(null)
        .setRetryAfter(null);
  }
}
