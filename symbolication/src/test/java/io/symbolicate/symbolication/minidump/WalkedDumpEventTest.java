package io.symbolicate.symbolication.minidump;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.NativePayload;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.json.RecordJson;
import io.symbolicate.symbols.minidump.DumpBuilder;
import io.symbolicate.symbols.minidump.Minidump;
import io.symbolicate.symbols.minidump.MinidumpException;
import io.symbolicate.symbols.minidump.walk.MinidumpProcessor;
import io.symbolicate.symbols.minidump.walk.ProcessState;
import io.symbolicate.symbols.minidump.walk.SymbolDirectory;
import io.symbolicate.symbols.minidump.walk.SymbolSupplier;
import io.symbolicate.symbols.minidump.walk.Trust;
import io.symbolicate.symbols.testing.GeneratedCorpus;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The event of a walked dump, as JSON ({@code minidump walk --json}), against Breakpad's own
 * outputs for the same dump: every frame of {@code minidump_stackwalk -m} (module, function,
 * file, line, offsets where the event has them) in the symbolicated stacks, the "Found by" of
 * its human report as the walked frames' trust, the crash line, the module lines, the number of
 * threads. On Breakpad's minidump2 (x86 Windows) and every case of the generated corpus (Linux
 * amd64; skipped with a message when the corpus is absent, failed under CI, as GeneratedCorpusTest).
 */
public class WalkedDumpEventTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  public static Path breakpadTestdata() {
    return SharedFixtures.fixtures("minidump").resolve("breakpad/src/processor/testdata");
  }

  public static CrashEvent raw(String id, String arch) {
    return CrashEvent.newBuilder()
        .setEventId(id)
        .setPlatform(Platform.native$)
        .setNative$(NativePayload.newBuilder().setArch(arch).build())
        .build();
  }

  /** Walks the dump and returns its event as the JSON tree the CLI prints. */
  static JsonNode eventJson(Path dmp, Path symbols) throws Exception {
    try (Minidump d = Minidump.open(dmp)) {
      ProcessState s = new MinidumpProcessor(new SymbolDirectory(symbols)).process(d);
      SymbolicatedEvent e =
          WalkedDumpEvent.of(
              raw(dmp.getFileName().toString(), s.cpu()),
              s,
              d.modules() == null ? List.of() : d.modules(),
              d.crashpadInfo(),
              1_764_000_000_000L);
      return JSON.readTree(RecordJson.write(e, false));
    }
  }

  @Test
  void minidump2MatchesBreakpad() throws Exception {
    Path t = breakpadTestdata();
    JsonNode e = eventJson(t.resolve("minidump2.dmp"), t.resolve("symbols"));
    compare(
        e,
        Files.readString(t.resolve("minidump2.stackwalk.machine_readable.out")).replace("\r", ""),
        Files.readString(t.resolve("minidump2.stackwalk.out")).replace("\r", ""));
    JsonNode m = e.get("minidump");
    assertThat(m.get("cpu").asText()).isEqualTo("x86");
    assertThat(m.get("crash_reason").asText()).isEqualTo("EXCEPTION_ACCESS_VIOLATION_WRITE");
    assertThat(m.get("threads").size()).isEqualTo(1);
    JsonNode crashed = m.get("threads").get(0);
    assertThat(crashed.get("crashed").asBoolean()).isTrue();
    assertThat(crashed.get("registers").get("eip").asText()).isEqualTo("0x0040429e");
    assertThat(e.get("event").get("native").get("arch").asText()).isEqualTo("x86");
    // the stack's two modules have symbols; the other eleven are in no stack
    assertThat(e.get("missing_symbols").size()).isZero();
    assertThat(JSON.convertValue(e.get("modules_in_stack"), List.class))
        .containsExactly(
            "test_app.pdb/5A9832E5287241C1838ED98914E9B7FF1",
            "kernel32.pdb/BCE8785C57B44245A669896B6A19B9542");
    long found = 0;
    long unused = 0;
    for (JsonNode r : e.get("modules")) {
      found += r.get("status").asText().equals("found") ? 1 : 0;
      unused += r.get("status").asText().equals("unused") ? 1 : 0;
    }
    assertThat(found).isEqualTo(2);
    assertThat(unused).isEqualTo(11);
  }

  @TestFactory
  Stream<DynamicTest> everyGeneratedCaseMatchesBreakpad() throws Exception {
    if (!GeneratedCorpus.present()) {
      return GeneratedCorpus.missingCorpusTest();
    }
    Path dir = GeneratedCorpus.minidump();
    JsonNode cases = JSON.readTree(dir.resolve("cases.json").toFile()).get("cases");
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode c : cases) {
      tests.add(
          DynamicTest.dynamicTest(
              c.get("name").asText(),
              () -> {
                JsonNode e =
                    eventJson(
                        dir.resolve(c.get("dump").asText()),
                        dir.resolve(c.get("symbols").asText()));
                compare(
                    e,
                    Files.readString(
                        dir.resolve(c.get("expected_machine_readable").asText()),
                        StandardCharsets.UTF_8),
                    Files.readString(
                        dir.resolve(c.get("expected_human").asText()), StandardCharsets.UTF_8));
                JsonNode m = e.get("minidump");
                assertThat(m.get("threads").size()).isEqualTo(c.get("thread_count").asInt());
                assertThat(m.get("crash_reason").asText())
                    .isEqualTo(c.get("crash_reason").asText());
                assertThat(m.get("requesting_thread").asInt())
                    .isEqualTo(c.get("crashed_thread").asInt());
                // every walked thread's registers are its context frame's (inlined frames before it
                // or not)
                for (JsonNode t : m.get("threads")) {
                  if (t.get("frames").size() > 0) {
                    assertThat(
                            Long.parseUnsignedLong(
                                t.get("registers").get("rip").asText().substring(2), 16))
                        .isEqualTo(t.get("frames").get(0).get("instruction_addr").asLong());
                  }
                }
                // the modules Breakpad found without symbols are the event's missing ones
                Set<String> without = new HashSet<>();
                for (JsonNode r : e.get("modules")) {
                  String status = r.get("status").asText();
                  if (status.equals("missing") || status.equals("malformed_request")) {
                    without.add(
                        basename(
                            m.get("modules")
                                .get(r.get("index").asInt())
                                .get("code_file")
                                .asText()));
                  }
                }
                Set<String> expected = new HashSet<>();
                c.get("modules_without_symbols").forEach(n -> expected.add(n.asText()));
                assertThat(without).isEqualTo(expected);
              }));
    }
    assertThat(tests).isNotEmpty();
    return tests.stream();
  }

  /**
   * Crashpad's annotations: the process's simple ones, and a module's list and simple ones under
   * the index of that module in the event (null for a link to no module of the dump).
   */
  @Test
  void crashpadAnnotationsComeOutWithTheirModules() throws Exception {
    DumpBuilder d = new DumpBuilder();
    long base = 0x400000;
    long stackBase = 0x7fff0000L;
    int stackRva = d.blob(DumpBuilder.le(0x200).putLong(0x100, base + 0x1251).array());
    int ctx = d.amd64Context(base + 0x1010, stackBase + 0x100, 0);
    ByteBuffer threads = DumpBuilder.le(4 + 48).putInt(0, 1);
    DumpBuilder.thread(threads, 4, 7, stackBase, 0x200, stackRva, ctx);
    int product = utf8(d, "product");
    int crashy = utf8(d, "Crashy");
    int channel = utf8(d, "channel");
    int beta = utf8(d, "beta");
    int abort = utf8(d, "abort: boom");
    int dictRva =
        d.blob(
            DumpBuilder.le(4 + 16)
                .putInt(0, 2)
                .putInt(4, product)
                .putInt(8, crashy)
                .putInt(12, channel)
                .putInt(16, beta)
                .array());
    int moduleDictRva =
        d.blob(DumpBuilder.le(4 + 8).putInt(0, 1).putInt(4, channel).putInt(8, beta).array());
    int listRva = d.blob(DumpBuilder.le(8).putInt(0, 1).putInt(4, abort).array());
    int moduleInfo =
        d.blob(
            DumpBuilder.le(20)
                .putInt(0, 1)
                .putInt(4, 8)
                .putInt(8, listRva)
                .putInt(12, 12)
                .putInt(16, moduleDictRva)
                .array());
    int links =
        d.blob(
            DumpBuilder.le(4 + 24)
                .putInt(0, 2)
                .putInt(4, 0)
                .putInt(8, 20)
                .putInt(12, moduleInfo)
                .putInt(16, 5)
                .putInt(20, 20)
                .putInt(24, moduleInfo)
                .array());
    ByteBuffer crashpad = DumpBuilder.le(52).putInt(0, 1);
    for (int i = 0; i < 32; i++) {
      crashpad.put(4 + i, (byte) (i < 16 ? 0xA0 + i : 0xC0 + i));
    }
    crashpad.putInt(36, 20).putInt(40, dictRva).putInt(44, 28).putInt(48, links);
    d.stream(Minidump.SYSTEM_INFO, DumpBuilder.systemInfoLinuxAmd64());
    d.stream(Minidump.THREAD_LIST, threads.array());
    d.stream(
        Minidump.MODULE_LIST,
        d.moduleList(
            base,
            0x10000,
            "/opt/crashy/crashy",
            new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}));
    d.stream(Minidump.EXCEPTION, d.exception(7, 11, ctx));
    d.stream(Minidump.CRASHPAD_INFO, crashpad.array());
    Minidump dump = Minidump.read(d.build());
    ProcessState s = new MinidumpProcessor(SymbolSupplier.NONE).process(dump);
    JsonNode m =
        JSON.readTree(
                RecordJson.write(
                    WalkedDumpEvent.of(
                        raw("cp", s.cpu()), s, dump.modules(), dump.crashpadInfo(), 0),
                    false))
            .get("minidump");
    assertThat(m.get("annotations").toString())
        .isEqualTo("{\"product\":\"Crashy\",\"channel\":\"beta\"}");
    JsonNode report = m.get("crashpad");
    assertThat(report.get("report_id").asText()).isEqualTo("a0a1a2a3a4a5a6a7a8a9aaabacadaeaf");
    assertThat(report.get("client_id").asText()).startsWith("d0d1");
    JsonNode perModule = report.get("module_annotations");
    assertThat(perModule.size()).isEqualTo(2);
    assertThat(perModule.get(0).get("module_index").asInt()).isZero();
    assertThat(m.get("modules").get(0).get("code_file").asText()).isEqualTo("/opt/crashy/crashy");
    assertThat(perModule.get(0).get("list_annotations").toString()).isEqualTo("[\"abort: boom\"]");
    assertThat(perModule.get(0).get("simple_annotations").toString())
        .isEqualTo("{\"channel\":\"beta\"}");
    assertThat(perModule.get(1).get("module_index").isNull()).isTrue();
    assertThat(m.get("threads").get(0).get("stop_reason").isTextual()).isTrue();
  }

  private static int utf8(DumpBuilder d, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    return d.blob(DumpBuilder.le(4 + b.length + 1).putInt(b.length).put(b).array());
  }

  /** Corrupted dumps that still walk map to an event that writes as JSON: nothing else escapes. */
  @Test
  void corruptedDumpsThatWalkMapAndWrite() throws Exception {
    Path t = breakpadTestdata();
    byte[] real = Files.readAllBytes(t.resolve("minidump2.dmp"));
    SymbolDirectory symbols = new SymbolDirectory(t.resolve("symbols"));
    Random r = new Random(29);
    int written = 0;
    for (int i = 0; i < 300; i++) {
      byte[] m = real.clone();
      for (int k = 1 + r.nextInt(6); k > 0; k--) {
        m[r.nextInt(i % 2 == 0 ? 2048 : m.length)] = (byte) r.nextInt(256);
      }
      Minidump d;
      ProcessState s;
      try {
        d = Minidump.read(m);
        s = new MinidumpProcessor(symbols, 4096).process(d);
      } catch (MinidumpException e) {
        continue; // refused with a reason: HostileDumpTest's part
      }
      SymbolicatedEvent e =
          WalkedDumpEvent.of(
              raw("c" + i, s.cpu()),
              s,
              d.modules() == null ? List.of() : d.modules(),
              d.crashpadInfo(),
              0);
      JsonNode tree = JSON.readTree(RecordJson.write(e, false));
      assertThat(tree.get("stacks").size()).isEqualTo(s.threads().size());
      written++;
    }
    assertThat(written).isGreaterThan(50);
  }

  /** The event against Breakpad's -m lines and the "Found by" lines of its human report. */
  static void compare(JsonNode e, String machine, String human) {
    JsonNode m = e.get("minidump");
    List<String> lines = machine.lines().toList();
    String[] crash =
        lines.stream()
            .filter(l -> l.startsWith("Crash|"))
            .findFirst()
            .orElseThrow()
            .split("\\|", -1);
    assertThat(m.get("crashed").asBoolean()).isTrue();
    assertThat(m.get("crash_reason").asText()).isEqualTo(crash[1]);
    assertThat("0x" + Long.toHexString(m.get("crash_address").asLong())).isEqualTo(crash[2]);
    assertThat(m.get("requesting_thread").asText()).isEqualTo(crash[3]);
    assertThat(m.get("threads").get(Integer.parseInt(crash[3])).get("crashed").asBoolean())
        .isTrue();

    // Module lines: the loaded modules, in address order
    List<String[]> moduleLines =
        lines.stream().filter(l -> l.startsWith("Module|")).map(l -> l.split("\\|", -1)).toList();
    JsonNode modules = m.get("modules");
    for (int i = 0; i < moduleLines.size(); i++) {
      String[] ml = moduleLines.get(i);
      JsonNode mod = modules.get(i);
      assertThat(mod.get("unloaded").asBoolean()).isFalse();
      assertThat(basename(mod.get("code_file").asText())).isEqualTo(ml[1]);
      assertThat(mod.get("debug_id").asText("")).isEqualTo(ml[4]);
      assertThat(String.format("0x%08x", mod.get("image_addr").asLong())).isEqualTo(ml[5]);
      assertThat(mod.get("main").asBoolean()).isEqualTo(ml[7].equals("1"));
    }

    // frame lines, per thread
    Map<Integer, List<String[]>> frames = new TreeMap<>();
    for (String l : lines.subList(lines.indexOf("") + 1, lines.size())) {
      String[] f = l.split("\\|", -1);
      frames.computeIfAbsent(Integer.parseInt(f[0]), k -> new ArrayList<>()).add(f);
    }
    Map<Integer, List<String>> foundBy = foundBy(human);
    JsonNode stacks = e.get("stacks");
    assertThat(stacks.size()).isEqualTo(m.get("threads").size());
    for (var entry : frames.entrySet()) {
      int t = entry.getKey();
      JsonNode stack = stacks.get(t);
      JsonNode walked = m.get("threads").get(t).get("frames");
      assertThat(stack.get("index").asInt()).isEqualTo(t);
      List<String[]> expected = entry.getValue();
      assertThat(stack.get("frames").size()).as("thread %d", t).isEqualTo(expected.size());
      assertThat(foundBy.get(t)).as("thread %d found-by lines", t).hasSize(expected.size());
      for (int k = 0; k < expected.size(); k++) {
        String[] x = expected.get(k);
        JsonNode f = stack.get("frames").get(k);
        String where = "thread " + t + " frame " + k;
        JsonNode w = walked.get(f.get("original_index").asInt());
        String module =
            f.get("module_index").isNull()
                ? ""
                : basename(modules.get(f.get("module_index").asInt()).get("code_file").asText());
        assertThat(module).as(where).isEqualTo(x[2]);
        assertThat(text(f, "function")).as(where).isEqualTo(x[3]);
        assertThat(text(f, "file")).as(where).isEqualTo(x[4]);
        assertThat(f.get("line").isNull() ? "" : f.get("line").asText()).as(where).isEqualTo(x[5]);
        if (x[3].isEmpty()) {
          // module-only and module-less frames: the offset is the event's module offset or address
          long off =
              x[2].isEmpty() ? w.get("instruction_addr").asLong() : f.get("module_offset").asLong();
          assertThat("0x" + Long.toHexString(off)).as(where).isEqualTo(x[6]);
          assertThat(f.get("status").asText()).as(where).isNotEqualTo("symbolicated");
        } else {
          assertThat(f.get("status").asText()).as(where).isEqualTo("symbolicated");
        }
        String trust =
            f.get("inlined").asBoolean()
                ? Trust.INLINE.description()
                : Trust.valueOf(w.get("trust").asText().toUpperCase(Locale.ROOT)).description();
        assertThat(trust).as(where).isEqualTo(foundBy.get(t).get(k));
      }
    }
  }

  /** "Found by:" lines of Breakpad's human report, per thread number. */
  static Map<Integer, List<String>> foundBy(String human) {
    Map<Integer, List<String>> out = new HashMap<>();
    List<String> current = null;
    for (String l : human.lines().toList()) {
      if (l.startsWith("Thread ")) {
        String n = l.substring(7).split(" ")[0];
        current = out.computeIfAbsent(Integer.parseInt(n), k -> new ArrayList<>());
      } else if (l.startsWith("Loaded modules:")) {
        current = null;
      } else if (current != null && l.startsWith("    Found by: ")) {
        current.add(l.substring("    Found by: ".length()));
      }
    }
    return out;
  }

  static String text(JsonNode n, String field) {
    return n.get(field).isNull() ? "" : n.get(field).asText();
  }

  static String basename(String path) {
    int i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
    return i < 0 ? path : path.substring(i + 1);
  }
}
