package io.symbolicate.symbols.minidump;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.minidump.Records.Thread;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The reader against Breakpad's own {@code minidump_dump minidump2.dmp} output: every field the
 * golden prints for the header, directory, threads, modules, memory, exception, system, misc and
 * Breakpad info streams, including the bytes of every memory region.
 */
class MinidumpReaderTest {
  static Path testdata() {
    return SharedFixtures.fixtures("minidump").resolve("breakpad/src/processor/testdata");
  }

  /** One printed block of minidump_dump: its title and "key = value" lines. */
  record Block(String title, Map<String, String> fields) {
    String get(String key) {
      String v = fields.get(key);
      if (v == null) {
        throw new AssertionError("golden block " + title + " has no " + key);
      }
      return v;
    }

    long num(String key) {
      String v = get(key).split(" ")[0];
      return v.startsWith("0x") ? Long.parseUnsignedLong(v.substring(2), 16) : Long.parseLong(v);
    }

    String quoted(String key) {
      String v = get(key);
      return v.equals("(null)") ? null : v.substring(1, v.length() - 1);
    }
  }

  static List<Block> golden() throws Exception {
    List<Block> out = new ArrayList<>();
    Block cur = null;
    String pendingMemory = null;
    for (String line : Files.readAllLines(testdata().resolve("minidump2.dump.out"))) {
      if (line.isEmpty()) {
        continue;
      }
      if (pendingMemory != null) {
        cur.fields().put(pendingMemory, line);
        pendingMemory = null;
      } else if (line.equals("Memory") || line.equals("Stack")) {
        pendingMemory = "bytes";
      } else if (!line.startsWith(" ")) {
        cur = new Block(line, new LinkedHashMap<>());
        out.add(cur);
      } else {
        int eq = line.indexOf(" = ");
        if (eq > 0) {
          cur.fields().put(line.substring(0, eq).trim(), line.substring(eq + 3).trim());
        }
      }
    }
    return out;
  }

  static List<Block> blocks(List<Block> all, String title) {
    return all.stream().filter(b -> b.title().equals(title)).toList();
  }

  static String bytesHex(MemoryReader m) {
    StringBuilder sb = new StringBuilder("0x");
    for (long a = m.base(); a < m.base() + m.size(); a += MemoryReader.WINDOW_BYTES) {
      int n = (int) Math.min(MemoryReader.WINDOW_BYTES, m.base() + m.size() - a);
      for (byte x : m.bytes(a, n)) {
        sb.append(String.format("%02x", x & 0xFF));
      }
    }
    return sb.toString();
  }

  @Test
  void minidump2MatchesMinidumpDump() throws Exception {
    List<Block> g = golden();
    try (Minidump dump = Minidump.open(testdata().resolve("minidump2.dmp"))) {
      Block h = blocks(g, "MDRawHeader").get(0);
      assertThat(dump.header().signature()).isEqualTo(h.num("signature"));
      assertThat(dump.header().version()).isEqualTo(h.num("version"));
      assertThat(dump.header().streamCount()).isEqualTo(h.num("stream_count"));
      assertThat(dump.header().directoryRva()).isEqualTo(h.num("stream_directory_rva"));
      assertThat(dump.header().timeDateStamp()).isEqualTo(h.num("time_date_stamp"));

      List<Block> dir = blocks(g, "MDRawDirectory");
      assertThat(dump.directory()).hasSize(dir.size());
      for (int i = 0; i < dir.size(); i++) {
        assertThat(dump.directory().get(i).type()).isEqualTo(dir.get(i).num("stream_type"));
        assertThat(dump.directory().get(i).size()).isEqualTo(dir.get(i).num("location.data_size"));
        assertThat(dump.directory().get(i).rva()).isEqualTo(dir.get(i).num("location.rva"));
      }

      List<Block> threads = blocks(g, "MDRawThread");
      List<Block> contexts = blocks(g, "MDRawContextX86");
      assertThat(dump.threads()).hasSize(threads.size());
      for (int i = 0; i < threads.size(); i++) {
        Thread t = dump.threads().get(i);
        Block b = threads.get(i);
        assertThat(t.id()).isEqualTo(b.num("thread_id"));
        assertThat(t.teb()).isEqualTo(b.num("teb"));
        assertThat(t.stack().base()).isEqualTo(b.num("stack.start_of_memory_range"));
        assertThat(t.stack().size()).isEqualTo(b.num("stack.memory.data_size"));
        assertThat(t.stack().rva()).isEqualTo(b.num("stack.memory.rva"));
        Block c = contexts.get(i);
        assertThat(bytesHex(dump.memory(dump.stackOf(t)))).isEqualTo(c.get("bytes"));
        CpuContext ctx = t.context();
        assertThat(ctx.cpu()).isEqualTo(Cpu.X86);
        for (String r : List.of("eip", "esp", "ebp", "ebx", "esi", "edi", "eax", "ecx", "edx")) {
          assertThat(ctx.get(Cpu.X86.register(r))).as(r).isEqualTo(c.num(r));
        }
        assertThat(ctx.get(Cpu.X86.register("efl"))).isEqualTo(c.num("eflags"));
      }

      List<Block> mods = blocks(g, "MDRawModule");
      assertThat(dump.modules()).hasSize(mods.size());
      for (int i = 0; i < mods.size(); i++) {
        Module m = dump.modules().get(i);
        Block b = mods.get(i);
        assertThat(m.base()).isEqualTo(b.num("base_of_image"));
        assertThat(m.size()).isEqualTo(b.num("size_of_image"));
        assertThat(m.checksum()).isEqualTo(b.num("checksum"));
        assertThat(m.timeDateStamp()).isEqualTo(b.num("time_date_stamp"));
        assertThat(m.codeFile()).isEqualTo(b.quoted("(code_file)"));
        assertThat(m.codeId()).isEqualTo(b.quoted("(code_identifier)"));
        assertThat(m.debugFile()).isEqualTo(b.quoted("(debug_file)"));
        assertThat(m.debugId()).isEqualTo(b.quoted("(debug_identifier)"));
        assertThat(m.version()).isEqualTo(b.quoted("(version)"));
        assertThat(m.codeView().age()).isEqualTo(b.num("(cv_record).age"));
      }

      List<Block> regions = blocks(g, "MDMemoryDescriptor");
      assertThat(dump.memoryList()).hasSize(regions.size());
      for (int i = 0; i < regions.size(); i++) {
        MemoryRange r = dump.memoryList().get(i);
        assertThat(r.base()).isEqualTo(regions.get(i).num("start_of_memory_range"));
        assertThat(r.size()).isEqualTo(regions.get(i).num("memory.data_size"));
        assertThat(r.rva()).isEqualTo(regions.get(i).num("memory.rva"));
        assertThat(bytesHex(dump.memory(r))).isEqualTo(regions.get(i).get("bytes"));
      }

      Block ex = blocks(g, "MDException").get(0);
      assertThat(dump.exception().threadId()).isEqualTo(ex.num("thread_id"));
      assertThat(dump.exception().code()).isEqualTo(ex.num("exception_record.exception_code"));
      assertThat(dump.exception().address())
          .isEqualTo(ex.num("exception_record.exception_address"));
      assertThat(dump.exception().parameters())
          .containsExactly(
              ex.num("exception_record.exception_information[ 0]"),
              ex.num("exception_record.exception_information[ 1]"));
      Block exCtx = contexts.get(contexts.size() - 1);
      assertThat(dump.exception().context().get(Cpu.X86_EIP)).isEqualTo(exCtx.num("eip"));
      assertThat(dump.exception().context().get(Cpu.X86_ESP)).isEqualTo(exCtx.num("esp"));

      Block si = blocks(g, "MDRawSystemInfo").get(0);
      SystemInfo s = dump.systemInfo();
      assertThat(s.processorLevel()).isEqualTo(si.num("processor_level"));
      assertThat(s.processorRevision()).isEqualTo(si.num("processor_revision"));
      assertThat(s.cpuCount()).isEqualTo(si.num("number_of_processors"));
      assertThat(s.buildNumber()).isEqualTo(si.num("build_number"));
      assertThat(s.platformId()).isEqualTo(si.num("platform_id"));
      assertThat(s.csdVersion()).isEqualTo(si.quoted("(csd_version)"));
      assertThat(s.cpuVendor()).isEqualTo(si.quoted("(cpu_vendor)"));

      Block misc = blocks(g, "MDRawMiscInfo").get(0);
      assertThat(dump.miscInfo().flags1()).isEqualTo(misc.num("flags1"));
      assertThat(dump.miscInfo().processId()).isEqualTo(misc.num("process_id"));
      assertThat(dump.miscInfo().processCreateTime()).isEqualTo(misc.num("process_create_time"));

      Block bp = blocks(g, "MDRawBreakpadInfo").get(0);
      assertThat(dump.breakpadInfo().validity()).isEqualTo(bp.num("validity"));
      assertThat(dump.breakpadInfo().dumpThreadId()).isEqualTo(bp.num("dump_thread_id"));
      assertThat(dump.breakpadInfo().requestingThreadId())
          .isEqualTo(bp.num("requesting_thread_id"));
      assertThat(dump.problems()).isEmpty();
    }
  }
}
