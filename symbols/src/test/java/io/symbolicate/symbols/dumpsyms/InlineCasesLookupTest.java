package io.symbolicate.symbols.dumpsyms;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Shapes of ceph-osd's DWARF where our lookups and llvm-symbolizer's parted (docs/benchmarks.md,
 * "ceph-osd debug file conversion"), in a small library built by {@code inline-cases/build.sh}:
 * every instruction address looked up in the table converted from {@code libcases.so}, against
 * llvm-symbolizer 19's answer where binutils addr2line or elfutils eu-addr2line agrees with it
 * (all three run by build.sh, their output committed). Frames compare as the generated corpus
 * compares them: base function name, file, line, innermost first.
 */
class InlineCasesLookupTest {
  private static Map<Long, List<String>> llvm;
  private static Map<Long, List<String>> addr2line;
  private static Map<Long, List<String>> euAddr2line;
  private static NativeSymbolizer ours;

  @BeforeAll
  static void load() throws Exception {
    Path dir = Path.of(InlineCasesLookupTest.class.getResource("inline-cases/llvm.json").toURI());
    dir = dir.getParent();
    llvm = llvmAnswers(dir.resolve("llvm.json"));
    addr2line = addr2lineAnswers(dir.resolve("addr2line.txt"));
    euAddr2line = addr2lineAnswers(dir.resolve("eu-addr2line.txt"));
    DebugFileTables.Converted converted =
        DebugFileTables.convert(
            dir.resolve("libcases.so"),
            new DumpSyms.Options(true, null, null),
            NativeSymbols.Options.defaults());
    ours = NativeSymbolizer.inMemory(converted.table());
  }

  private static List<String> ours(long address) {
    return GeneratedDifsLookupTest.frames(ours.lookup(address));
  }

  private static boolean agreed(long address) {
    List<String> l = llvm.get(address);
    return l.equals(addr2line.get(address)) || l.equals(euAddr2line.get(address));
  }

  /** The peers agree where the cases are (else the committed answers prove nothing). */
  @Test
  void thePeersAgree() {
    assertThat(llvm).hasSize(addr2line.size()).hasSize(euAddr2line.size()).hasSizeGreaterThan(90);
    for (long a : new long[] {0x1045, 0x104c, 0x106b, 0x1070, 0x1085, 0x108a, 0x1154}) {
      assertThat(agreed(a)).as(Long.toHexString(a)).isTrue();
    }
  }

  /**
   * nest.cc: {@code inner}, called on one line of {@code wrap}, is one INLINE record (Mozilla's
   * grouping by origin, depth, call line and call file) with ranges under both calls of {@code
   * wrap}; the second call's range equals its range there, and the record comes first (its
   * first range is earlier). Nesting by containment put that {@code wrap} inside {@code inner}.
   */
  @Test
  void aCallGroupedAcrossCallersNestsUnderEach() {
    assertThat(ours(0x1085)).isEqualTo(llvm.get(0x1085L)).hasSize(3);
    assertThat(ours(0x1070)).isEqualTo(llvm.get(0x1070L)).hasSize(3);
  }

  /**
   * cold.cc: {@code second()}'s .cold part opens without a line row of its own (GCC writes none
   * when the location does not change), so the row that answers there starts in {@code first()}'s
   * .cold part: cut to the function, it is the line of the inlined {@code check}.
   */
  @Test
  void aLineRowStartingBeforeItsFunctionAnswersInIt() {
    assertThat(ours(0x1045)).isEqualTo(llvm.get(0x1045L)).hasSize(2);
    assertThat(ours(0x104c)).isEqualTo(llvm.get(0x104cL));
  }

  /**
   * gap.cc: {@code deeper} (level 3) starts only after {@code other} (level 0) started, so its
   * record follows other's: Breakpad's rule (a level at most one deeper than the record before)
   * dropped it.
   */
  @Test
  void aCallListedAfterAShallowerOneKeepsItsCallers() {
    assertThat(ours(0x1154)).isEqualTo(llvm.get(0x1154L)).hasSize(5);
  }

  @Test
  void everyAddressWhereThePeersAgree() {
    List<String> differ = new ArrayList<>();
    int compared = 0;
    for (Map.Entry<Long, List<String>> e : llvm.entrySet()) {
      List<String> frames = e.getValue();
      if (!agreed(e.getKey())
          || frames.isEmpty()
          || frames.get(frames.size() - 1).startsWith("\t")) {
        continue; // no agreement, or padding after a function: a line row but no function
      }
      compared++;
      List<String> mine = ours(e.getKey());
      if (!mine.equals(e.getValue())) {
        differ.add(Long.toHexString(e.getKey()) + ": ours " + mine + " peers " + e.getValue());
      }
    }
    assertThat(compared).isGreaterThan(80);
    assertThat(differ).isEmpty();
  }

  private static String key(String function, String file, long line) {
    return GeneratedDifsLookupTest.functionKey(function)
        + "\t"
        + (file == null || file.equals("??") ? "" : Path.of(file).normalize().toString())
        + "\t"
        + line;
  }

  static Map<Long, List<String>> llvmAnswers(Path file) throws Exception {
    ObjectMapper json = new ObjectMapper();
    Map<Long, List<String>> out = new LinkedHashMap<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode e = json.readTree(line);
      List<String> frames = new ArrayList<>();
      for (JsonNode s : e.get("Symbol")) {
        String fn = s.path("FunctionName").asText("");
        String path = s.path("FileName").asText("");
        if (!fn.isEmpty() || !path.isEmpty()) {
          frames.add(key(fn, path, s.path("Line").asLong(0)));
        }
      }
      out.put(Long.parseLong(e.get("Address").asText().substring(2), 16), frames);
    }
    return out;
  }

  /**
   * {@code addr2line -a -f -i -C} or {@code eu-addr2line -a -f -i -C}: an address line, then
   * function and file:line[:column] per frame (eu-addr2line adds "inlined at ..." to the name).
   */
  static Map<Long, List<String>> addr2lineAnswers(Path file) throws Exception {
    Map<Long, List<String>> out = new LinkedHashMap<>();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    List<String> frames = null;
    for (int i = 0; i < lines.size(); i++) {
      String l = lines.get(i);
      if (l.startsWith("0x")) {
        frames = new ArrayList<>();
        out.put(Long.parseUnsignedLong(l.substring(2), 16), frames);
        continue;
      }
      String where = lines.get(++i).split(" ")[0];
      String[] parts = where.split(":");
      String path = parts[0];
      String num = parts.length > 1 ? parts[1] : "0";
      int inlined = l.indexOf(" inlined at ");
      String fn = l.equals("??") ? "" : inlined >= 0 ? l.substring(0, inlined) : l;
      if (!fn.isEmpty() || !path.equals("??")) {
        frames.add(key(fn, path, num.equals("?") ? 0 : Long.parseLong(num)));
      }
    }
    return out;
  }
}
