package io.symbolicate.symbols.minidump.walk;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.minidump.DumpBuilder;
import io.symbolicate.symbols.minidump.Minidump;
import io.symbolicate.symbols.minidump.Records.ExceptionInfo;
import io.symbolicate.symbols.minidump.SystemInfo;
import io.symbolicate.symbols.testing.GeneratedCorpus;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Breakpad's crash reasons and addresses for every OS family its processor knows, from a table
 * of (OS, CPU, exception code, flags, parameters, exception address) to the {@code Crash|reason|
 * address|thread} line of Breakpad's {@code minidump_stackwalk -m} (src/test/resources
 * minidump/crash-reasons.tsv). The table's expected columns are Breakpad's: with the generated
 * corpus' tools, {@link #breakpadsMinidumpStackwalkPrintsTheTable} runs Breakpad's own
 * minidump_stackwalk on a synthetic dump of every row (CI does; a developer's run without the
 * corpus skips it) and writes target/crash-reasons.breakpad.tsv when a row differs.
 */
class CrashReasonTableTest {
  private static final long STACK = 0x7ff000000000L;

  /** A row: the dump's inputs and Breakpad's output. */
  record Row(
      String os,
      long platform,
      int arch,
      long code,
      long flags,
      long[] params,
      long address,
      String reason,
      String crashAddress) {
    String inputs() {
      return String.format(
          "%s platform 0x%x cpu 0x%x code 0x%08x flags 0x%08x params %s address 0x%x",
          os, platform, arch, code, flags, paramsText(), address);
    }

    String paramsText() {
      if (params == null) {
        return "-";
      }
      List<String> s = new ArrayList<>();
      for (long p : params) {
        s.add("0x" + Long.toHexString(p));
      }
      return String.join(",", s);
    }

    String crashLine() {
      return "Crash|" + reason + "|" + crashAddress + "|0";
    }
  }

  static List<Row> rows() throws IOException {
    List<Row> rows = new ArrayList<>();
    try (InputStream in =
        CrashReasonTableTest.class.getResourceAsStream("/minidump/crash-reasons.tsv")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.split("\t");
        long[] params = null;
        if (!f[5].equals("-")) {
          String[] ps = f[5].split(",");
          params = new long[ps.length];
          for (int i = 0; i < ps.length; i++) {
            params[i] = Long.parseUnsignedLong(ps[i].substring(2), 16);
          }
        }
        rows.add(
            new Row(
                f[0],
                Long.decode(f[1]),
                Integer.decode(f[2]),
                Long.decode(f[3]),
                Long.decode(f[4]),
                params,
                Long.parseUnsignedLong(f[6].substring(2), 16),
                f.length > 7 ? f[7] : "",
                f.length > 8 ? f[8] : ""));
      }
    }
    return rows;
  }

  private static SystemInfo systemInfo(Row r) {
    return new SystemInfo(r.arch(), 6, 0, 1, 1, 0, 0, 0, r.platform(), "", null);
  }

  /** A one-thread dump (amd64 context) with the row's system info and exception record. */
  static byte[] dump(Row r) {
    DumpBuilder d = new DumpBuilder();
    int stack = d.blob(new byte[0x100]);
    int ctx = d.amd64Context(0x401000, STACK, 0);
    ByteBuffer threads = DumpBuilder.le(4 + 48).putInt(0, 1);
    DumpBuilder.thread(threads, 4, 7, STACK, 0x100, stack, ctx);
    ByteBuffer si = DumpBuilder.le(56);
    si.putShort(0, (short) r.arch()).put(6, (byte) 1).putInt(20, (int) r.platform());
    d.stream(Minidump.SYSTEM_INFO, si.array());
    d.stream(Minidump.THREAD_LIST, threads.array());
    ByteBuffer e = DumpBuilder.le(168);
    long[] p = r.params() == null ? new long[0] : r.params();
    e.putInt(0, 7)
        .putInt(8, (int) r.code())
        .putInt(12, (int) r.flags())
        .putLong(24, r.address())
        .putInt(32, p.length)
        .putInt(160, 1232)
        .putInt(164, ctx);
    for (int i = 0; i < p.length; i++) {
      e.putLong(40 + 8 * i, p[i]);
    }
    d.stream(Minidump.EXCEPTION, e.array());
    return d.build();
  }

  @Test
  void everyOsFamilyAndCodeNamedAsBreakpadDoes() throws Exception {
    List<Row> rows = rows();
    Map<String, Integer> perOs = new TreeMap<>();
    for (Row r : rows) {
      long[] p = r.params() == null ? new long[0] : r.params();
      CrashReason.Result got =
          CrashReason.of(
              new ExceptionInfo(7, r.code(), r.flags(), 0, r.address(), p, null), systemInfo(r));
      // -m output drops the field separator '|' (three Solaris names hold one)
      assertThat(got.reason().replace("|", "")).as(r.inputs()).isEqualTo(r.reason());
      assertThat("0x" + Long.toHexString(got.address())).as(r.inputs()).isEqualTo(r.crashAddress());
      perOs.merge(r.os(), 1, Integer::sum);
    }
    assertThat(perOs.keySet())
        .containsExactlyInAnyOrder(
            "windows", "mac", "ios", "linux", "android", "fuchsia", "solaris", "ps3", "nacl",
            "unknown");
  }

  @Test
  void syntheticDumpsOfEveryOsFamilyWalkToBreakpadsCrashLineAndReport() throws Exception {
    for (Row r : rows()) {
      ProcessState s = new MinidumpProcessor(m -> null).process(Minidump.read(dump(r)));
      String machine = MachineReadableWriter.write(s);
      assertThat(machine.lines().filter(l -> l.startsWith("Crash|")))
          .as(r.inputs())
          .containsExactly(r.crashLine());
      String human = HumanReadableWriter.write(s);
      String reasonLine =
          human.lines().filter(l -> l.startsWith("Crash reason:  ")).findFirst().orElse("");
      assertThat(reasonLine.replace("|", ""))
          .as(r.inputs())
          .isEqualTo("Crash reason:  " + r.reason());
      assertThat(human).as(r.inputs()).contains("\nCrash address: " + r.crashAddress() + "\n");
    }
  }

  @Test
  void breakpadsMinidumpStackwalkPrintsTheTable() throws Exception {
    Path tool = GeneratedCorpus.minidump().resolve("tools").resolve("minidump_stackwalk");
    GeneratedCorpus.need(Files.isExecutable(tool), "Breakpad's minidump_stackwalk " + tool);
    Path dir = Paths.get("target", "crash-reasons");
    Files.createDirectories(dir);
    List<Row> rows = rows();
    StringBuilder breakpads = new StringBuilder();
    List<String> differ = new ArrayList<>();
    Set<String> humanChecked = new HashSet<>();
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      Path dmp = dir.resolve(i + ".dmp");
      Files.write(dmp, dump(r));
      String crash = breakpadCrashLine(tool, dmp);
      String[] f = crash.split("\\|", -1);
      breakpads
          .append(
              String.join(
                  "\t",
                  r.os(),
                  "0x" + Long.toHexString(r.platform()),
                  "0x" + Integer.toHexString(r.arch()),
                  String.format("0x%08x", r.code()),
                  String.format("0x%08x", r.flags()),
                  r.paramsText(),
                  "0x" + Long.toHexString(r.address()),
                  f.length > 1 ? f[1] : "?",
                  f.length > 2 ? f[2] : "?"))
          .append('\n');
      if (!crash.equals(r.crashLine())) {
        differ.add(r.inputs() + ": Breakpad " + crash + ", table " + r.crashLine());
      }
      if (humanChecked.add(r.os()) || r.reason().contains("  ")) {
        // the human report of the first row of each OS (and of names holding '|') as Breakpad's
        ProcessState ours = new MinidumpProcessor(m -> null).process(Minidump.read(dump(r)));
        assertThat(
                crashLines(HumanReadableWriter.write(ours, HumanReadableWriter.Dialect.NPM_0_26)))
            .as(r.inputs())
            .isEqualTo(crashLines(breakpad(tool, dmp, false)));
      }
    }
    if (!differ.isEmpty()) {
      Files.writeString(Paths.get("target", "crash-reasons.breakpad.tsv"), breakpads);
    }
    assertThat(differ).as("rows whose Breakpad output differs from the table").isEmpty();
  }

  /**
   * Real dumps of the peers' fixtures (macOS, Linux, Windows, Crashpad): our {@code Crash|} line
   * and the report's crash lines equal those of Breakpad's minidump_stackwalk, run on them here.
   */
  @Test
  void realDumpsOfThePeersGetBreakpadsCrashLines() throws Exception {
    Path tool = GeneratedCorpus.minidump().resolve("tools").resolve("minidump_stackwalk");
    GeneratedCorpus.need(Files.isExecutable(tool), "Breakpad's minidump_stackwalk " + tool);
    Path fixtures = SharedFixtures.fixtures("minidump");
    List<Path> dumps =
        List.of(
            fixtures.resolve("symbolicator/tests/fixtures/macos.dmp"),
            fixtures.resolve("symbolicator/tests/fixtures/linux.dmp"),
            fixtures.resolve("symbolicator/tests/fixtures/windows.dmp"),
            fixtures.resolve("rust-minidump/testdata/test.dmp"),
            fixtures.resolve("rust-minidump/testdata/simple-crashpad.dmp"),
            fixtures.resolve("rust-minidump/testdata/linux-mini.dmp"),
            fixtures.resolve("breakpad/src/processor/testdata/minidump2.dmp"));
    for (Path dmp : dumps) {
      ProcessState s;
      try (Minidump d = Minidump.open(dmp)) {
        s = new MinidumpProcessor(m -> null).process(d);
      }
      assertThat(MachineReadableWriter.write(s).lines().filter(l -> l.startsWith("Crash|")))
          .as(dmp.toString())
          .containsExactly(breakpadCrashLine(tool, dmp));
      assertThat(crashLines(HumanReadableWriter.write(s, HumanReadableWriter.Dialect.NPM_0_26)))
          .as(dmp.toString())
          .isEqualTo(crashLines(breakpad(tool, dmp, false)));
    }
  }

  private static List<String> crashLines(String report) {
    return report.lines().filter(l -> l.startsWith("Crash ")).toList();
  }

  private static String breakpadCrashLine(Path tool, Path dmp) throws Exception {
    return breakpad(tool, dmp, true)
        .lines()
        .filter(l -> l.startsWith("Crash|"))
        .findFirst()
        .orElse("(no Crash line)");
  }

  private static String breakpad(Path tool, Path dmp, boolean machineReadable) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(tool.toString()));
    if (machineReadable) {
      cmd.add("-m");
    }
    cmd.add(dmp.toString());
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return out;
  }
}
