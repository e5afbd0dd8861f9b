package io.symbolicate.symbols.jvm;

import static io.symbolicate.symbols.testing.Fuzzing.check;
import static io.symbolicate.symbols.testing.Fuzzing.expect;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.symbolicate.symbols.table.TablePage;
import io.symbolicate.symbols.testing.Fuzzing;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz targets of the ProGuard/R8 side (docs/fuzzing.md). In every build each replays its corpus
 * under {@code src/test/resources/.../JvmFuzzTestsInputs/<target>/}; {@code scripts/fuzz.sh} runs
 * one coverage-guided.
 */
class JvmFuzzTests {
  /** Page size of the tables built here: small, so a few-KB mapping is cut into several pages. */
  private static final int PAGE_BYTES = 256;

  /** Classes and methods retraced per input. */
  private static final int PROBES = 16;

  /** The mapping stack traces are retraced against: written for the fuzz target, every feature once. */
  private static final String MAPPING =
      """
      # compiler: R8
      # compiler_version: 8.2.42
      # min_api: 21
      # pg_map_id: 4b1a9f0
      # pg_map_hash: SHA-256 4b1a9f0c
      # {"id":"com.android.tools.r8.mapping","version":"2.2"}
      com.example.Main -> a:
      # {"id":"sourceFile","fileName":"Main.kt"}
          java.lang.String label -> c
          1:1:void com.example.Util.helper():10:10 -> a
          1:1:void run():20 -> a
          2:5:void run():21:24 -> a
          # {"id":"com.android.tools.r8.rewriteFrame","conditions":["throws(Ljava/lang/NullPointerException;)"],"actions":["removeInnerFrames(1)"]}
          6:6:int compute(int):30:30 -> b
          7:9:int compute(int,long):40 -> b
          void noLines() -> d
      com.example.Outline -> b:
          1:2:int outline():0:0 -> a
          # {"id":"com.android.tools.r8.outline"}
      com.example.Caller -> c:
          1:1:void caller():5:5 -> a
          # {"id":"com.android.tools.r8.outlineCallsite","positions":{"1":4,"2":5},"outline":"Lb;a()I"}
          4:4:void caller():6:6 -> a
          5:5:void caller():7:7 -> a
      com.example.Main$Lambda -> d:
      # {"id":"com.android.tools.r8.synthesized"}
          void run() -> a
      """;

  private static final Retracer RETRACER =
      Retracer.inMemory(JvmPages.fromMapping(MAPPING.getBytes(StandardCharsets.UTF_8)));

  /**
   * A mapping.txt through the parser: a mapping or {@link MappingException}. A mapping must build
   * a table that decodes again, and retracing through the table must give what the direct
   * retracer (no pages) gives.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  @DictionaryEntries({
    " -> ",
    "    ",
    "1:2:",
    "void ",
    "int ",
    "java.lang.String ",
    "():",
    "# {\"id\":\"sourceFile\",\"fileName\":\"A.kt\"}",
    "# {\"id\":\"com.android.tools.r8.synthesized\"}",
    "# {\"id\":\"com.android.tools.r8.outline\"}",
    "\"outlineCallsite\"",
    "\"positions\":{\"1\":4}",
    "\"com.android.tools.r8.rewriteFrame\"",
    "\"removeInnerFrames(1)\"",
    "throws(Ljava/lang/Error;)",
    "\"com.android.tools.r8.mapping\",\"version\":\"2.2\"",
    "# compiler: R8",
    "# pg_map_id: "
  })
  void mapping(byte[] data) throws Exception {
    expect(
        data,
        () -> {
          ParsedMapping m = MappingParser.parse(data);
          JvmTable table = JvmTableBuilder.build(m, PAGE_BYTES);
          JvmHeader header = JvmHeader.decode(table.header());
          check(
              header.pageCount() == table.pages().size(),
              "header's page count differs from the pages");
          for (TablePage p : table.pages()) {
            JvmPages.decode(p.bytes());
          }
          JvmTable again = JvmTableFile.read(JvmTableFile.toBytes(table));
          check(again.pages().size() == table.pages().size(), "table file round trip loses pages");
          Retracer paged = Retracer.inMemory(table);
          Retracer direct = JvmTableBuilder.directRetracer(m);
          int n = 0;
          for (ParsedMapping.ParsedClass c : m.classes) {
            if (n++ == PROBES) {
              break;
            }
            check(
                paged.findClass(c.obfuscated) != null, "a parsed class is not found in its table");
            int k = 0;
            for (ParsedMapping.ParsedMember member : c.members) {
              if (k++ == PROBES || member.obfName == null) {
                break;
              }
              for (int line :
                  new int[] {member.obfStart, member.obfEnd, 0, -1, member.obfStart + 1}) {
                for (boolean ambiguity : new boolean[] {false, true}) {
                  String a = render(paged.retrace(c.obfuscated, member.obfName, line, ambiguity));
                  String b = render(direct.retrace(c.obfuscated, member.obfName, line, ambiguity));
                  if (!a.equals(b)) {
                    check(
                        false,
                        "paged and direct retrace differ for "
                            + c.obfuscated
                            + "."
                            + member.obfName
                            + ":"
                            + line
                            + ": "
                            + a
                            + " / "
                            + b);
                  }
                }
              }
              paged.isOutline(c.obfuscated, member.obfName);
              paged.mapOutlinePosition(c.obfuscated, member.obfName, member.obfStart, 1);
            }
            paged.remapClass(c.obfuscated);
          }
        },
        MappingException.class);
  }

  private static String render(FrameResult r) {
    StringBuilder sb =
        new StringBuilder()
            .append(r.status())
            .append(' ')
            .append(r.originalClass())
            .append(' ')
            .append(r.classSourceFile());
    for (RetracedFrame f : r.frames()) {
      sb.append(" | ")
          .append(f.className())
          .append('.')
          .append(f.method())
          .append(':')
          .append(f.line())
          .append(' ')
          .append(f.declaredFile())
          .append(' ')
          .append(f.synthesized())
          .append(' ')
          .append(f.alternative())
          .append(' ')
          .append(List.of(f.rules()));
    }
    return sb.toString();
  }

  /**
   * Stack trace text retraced in both output styles against a small fixed mapping: text, never an
   * exception; each line through the frame and throwable line parsers likewise.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  @DictionaryEntries({
    "\tat ",
    "    at ",
    "a.a(",
    "c.a(",
    "b.a(",
    "SourceFile:",
    "Unknown Source",
    "Native Method",
    ")",
    "Caused by: ",
    "java.lang.NullPointerException: ",
    "... 3 more",
    "Suppressed: ",
    "(Main.kt:",
    "$$ExternalSyntheticLambda0",
    "app//"
  })
  void stackTrace(byte[] data) throws Exception {
    String text = new String(data, StandardCharsets.UTF_8);
    expect(
        data,
        () -> {
          for (TraceRetracer.Style style : TraceRetracer.Style.values()) {
            new TraceRetracer(RETRACER, style).retrace(text);
          }
          for (String line : text.split("\n", PROBES + 1)) {
            StackTraceLine.Frame f = StackTraceLine.parseFrame(line);
            if (f != null) {
              f.indent();
              f.module();
              f.className();
              f.method();
              f.file();
              f.line();
            }
            StackTraceLine.parseThrowable(line);
          }
        });
  }

  /**
   * Bytes as a stored header, a stored page and a table file: decoded, or
   * {@link MappingException}; a decoded page answers class and method lookups.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void tableBytes(byte[] data) throws Exception {
    expect(data, () -> JvmHeader.decode(data), MappingException.class);
    expect(
        data,
        () -> {
          JvmPage page = JvmPages.decode(data);
          for (int i = 0; i < Math.min(PROBES, page.classCount()); i++) {
            JvmClass c = page.classAt(i);
            page.find(JvmTable.classKey(c.obfuscatedName()), c.obfuscatedName());
            for (MethodMapping mm : c.methods()) {
              c.method(mm.obfuscatedName());
              for (MemberEntry e : mm.entries()) {
                e.covers(e.obfStart());
                e.originalLine(e.obfStart());
                e.outlineCallsite(1);
              }
            }
          }
        },
        MappingException.class);
    expect(
        data,
        () -> {
          JvmTable t = JvmTableFile.read(data);
          Retracer r = Retracer.inMemory(t);
          r.retrace("a", "a", 1);
          r.findClass("a");
        },
        MappingException.class);
  }
}
