package io.symbolicate.symbols.jvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Hostile and broken inputs: each must give a clear error or a sane partial result, never hang. */
class HostileMappingTest {

  private static Retracer retracer(String mapping) {
    return retracer(mapping.getBytes(StandardCharsets.UTF_8));
  }

  private static Retracer retracer(byte[] mapping) {
    return Retracer.inMemory(JvmPages.fromMapping(mapping));
  }

  private static String r8(Retracer r, String trace) {
    return new TraceRetracer(r, TraceRetracer.Style.R8).retrace(trace);
  }

  @Test
  void tenMegabyteLinesAreReadAndDoNotDisturbTheRest() {
    String huge = "x".repeat(10 << 20);
    String mapping =
        "some.Huge -> a:\n"
            + "    1:1:void "
            + huge
            + "() -> a\n"
            + "    1:1:"
            + huge
            + " -> b\n" // 10 MB without parentheses: read as a field
            + huge
            + "\n" // 10 MB of garbage as a class line
            + "some.Small -> b:\n"
            + "    5:5:void run():42 -> c\n";
    ParsedMapping pm = MappingParser.parse(mapping.getBytes(StandardCharsets.UTF_8));
    assertThat(pm.malformedLines).isEqualTo(1);
    assertThat(pm.fieldCount).isEqualTo(1);
    Retracer r = Retracer.inMemory(JvmTableBuilder.build(pm));
    assertThat(r.retrace("a", "a", 1).frames().get(0).method()).hasSize(10 << 20);
    assertThat(r8(r, "\tat b.c(SourceFile:5)\n")).isEqualTo("\tat some.Small.run(Small.java:42)\n");
  }

  @Test
  void lineRangesThatOverflowAreSkippedAndCounted() {
    String mapping =
        "some.Klass -> a:\n"
            + "    99999999999:99999999999:void big() -> a\n"
            + "    1:99999999999:void big2() -> b\n"
            + "    1:2:void big3():1:99999999999 -> c\n"
            + "    2147483000:2147483647:void edge():2147483000:2147483647 -> d\n"
            + "    0:2147483647:void wide():2147483646:2147483647 -> f\n"
            + "    1:1:void ok():7 -> e\n";
    ParsedMapping pm = MappingParser.parse(mapping.getBytes(StandardCharsets.UTF_8));
    assertThat(pm.malformedLines).isEqualTo(3);
    assertThat(pm.firstMalformedReason).contains("31 bits");
    Retracer r = retracer(mapping);
    // the largest representable range still maps without overflowing
    FrameResult edge = r.retrace("a", "d", 2147483647);
    assertThat(edge.frames()).extracting(RetracedFrame::line).containsExactly(2147483647);
    assertThat(r.retrace("a", "e", 1).frames()).extracting(RetracedFrame::line).containsExactly(7);
    // original start + offset would overflow: the line stays within the method's range
    assertThat(r.retrace("a", "f", 100).frames())
        .extracting(RetracedFrame::line)
        .containsExactly(2147483646);
    assertThat(r.retrace("a", "a", 5).status()).isEqualTo(FrameResult.Status.CLASS_ONLY);
    // a trace line number too large for an int is treated as "no line"
    assertThat(r8(r, "\tat a.e(SourceFile:99999999999)\n"))
        .isEqualTo("\tat some.Klass.ok(Klass.java)\n");
  }

  @Test
  void classMappedTwiceKeepsTheFirstNameAndMergesMembers() {
    String mapping =
        "first.Name -> a:\n"
            + "    1:1:void one():10 -> a\n"
            + "second.Name -> a:\n"
            + "    2:2:void two():20 -> a\n";
    ParsedMapping pm = MappingParser.parse(mapping.getBytes(StandardCharsets.UTF_8));
    assertThat(pm.duplicateClasses).isEqualTo(1);
    assertThat(pm.classes).hasSize(1);
    Retracer r = retracer(mapping);
    assertThat(r.remapClass("a")).isEqualTo("first.Name");
    RetracedFrame one = r.retrace("a", "a", 1).frames().get(0);
    assertThat(one.className() + "." + one.method() + ":" + one.line())
        .isEqualTo("first.Name.one:10");
    // the second block's members keep their own class
    RetracedFrame two = r.retrace("a", "a", 2).frames().get(0);
    assertThat(two.className() + "." + two.method() + ":" + two.line())
        .isEqualTo("second.Name.two:20");
  }

  @Test
  void rewriteFrameRulesThatRemoveEverythingOrRepeatTerminate() {
    String rule =
        "    # {\"id\":\"com.android.tools.r8.rewriteFrame\",\"conditions\":[\"throws(Ljava/lang/NullPointerException;)\"],"
            + "\"actions\":[\"removeInnerFrames(%s)\"]}\n";
    // R8 applies rewriteFrame rules in maps of version 2.0 and later
    StringBuilder m =
        new StringBuilder(
            "# {\"id\":\"com.android.tools.r8.mapping\",\"version\":\"2.0\"}\nsome.Klass -> a:\n");
    // a chain where every frame carries rules, some removing more frames than exist, one
    // overflowing
    for (int i = 0; i < 50; i++) {
      m.append("    4:4:void f")
          .append(i)
          .append("():")
          .append(10 + i)
          .append(i == 0 ? ":" + 10 : "")
          .append(" -> a\n");
      m.append(String.format(rule, i % 2 == 0 ? "1" : "2147483647"));
      m.append(String.format(rule, "99999999999"));
    }
    m.append("some.Other -> b:\n    5:5:void keep():30 -> run\n");
    Retracer r = retracer(m.toString());
    String out =
        r8(
            r,
            "java.lang.NullPointerException: boom\n\tat a.a(SourceFile:4)\n\tat b.run(SourceFile:5)\n");
    assertThat(out)
        .isEqualTo("java.lang.NullPointerException: boom\n\tat some.Other.keep(Other.java:30)\n");
    // other exceptions leave the chain alone
    String ise = r8(r, "java.lang.IllegalStateException\n\tat a.a(SourceFile:4)\n");
    assertThat(ise.split("\n")).hasSize(51);
  }

  @Test
  void outlineFramesCarryTheirPositionOnlyOnce() {
    String mapping =
        "# {\"id\":\"com.android.tools.r8.mapping\",\"version\":\"2.0\"}\n"
            + "outline.Class -> a:\n"
            + "    1:2:int outline():0:0 -> a\n"
            + "    # {\"id\":\"com.android.tools.r8.outline\"}\n"
            + "some.Class -> b:\n"
            + "    4:4:int call():3:3 -> s\n"
            + "    # {\"id\":\"com.android.tools.r8.outlineCallsite\",\"positions\":{\"1\":5,\"2\":6},\"outline\":\"La;a()I\"}\n"
            + "    5:5:int call():42:42 -> s\n"
            + "    6:6:int call():43:43 -> s\n";
    Retracer r = retracer(mapping);
    // two outline frames in a row (as a cycle would produce): only the last position is used
    String out =
        r8(
            r,
            "java.lang.Exception\n\tat a.a(SourceFile:2)\n\tat a.a(SourceFile:1)\n\tat b.s(SourceFile:4)\n");
    assertThat(out).isEqualTo("java.lang.Exception\n\tat some.Class.call(Class.java:42)\n");
  }

  @Test
  void truncatedMappingKeepsWhatIsComplete() {
    String full = "some.Klass -> a:\n    1:1:void one():10 -> a\n    2:2:void two():20 -> b\n";
    byte[] cut = Arrays.copyOf(full.getBytes(StandardCharsets.UTF_8), full.length() - 12);
    ParsedMapping pm = MappingParser.parse(cut);
    assertThat(pm.malformedLines).isEqualTo(1);
    Retracer r = Retracer.inMemory(JvmTableBuilder.build(pm));
    assertThat(r.retrace("a", "a", 1).frames().get(0).method()).isEqualTo("one");
    assertThat(r.retrace("a", "b", 2).status()).isEqualTo(FrameResult.Status.CLASS_ONLY);
  }

  @Test
  void nothingUsableIsAClearError() {
    assertThatThrownBy(() -> MappingParser.parse(new byte[0]))
        .isInstanceOf(MappingException.class)
        .hasMessageContaining("no 'original -> obfuscated:' class line");
    assertThatThrownBy(() -> MappingParser.parse("some.Klass -> ".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(MappingException.class)
        .hasMessageContaining("1 malformed line(s), first at line 1");
    assertThatThrownBy(
            () ->
                MappingParser.parse(
                    "\u0089PNG\r\n\u001a\n\u0000\u0000".getBytes(StandardCharsets.ISO_8859_1)))
        .isInstanceOf(MappingException.class)
        .hasMessageContaining("not a usable ProGuard/R8 mapping");
  }

  @Test
  void truncatedOrCorruptTablesAreRejectedWithAReason() {
    JvmTable t =
        JvmPages.fromMapping(
            "some.Klass -> a:\n    1:1:void one():10 -> a\n".getBytes(StandardCharsets.UTF_8));
    byte[] file = JvmTableFile.toBytes(t);
    for (int len = 0; len < file.length; len++) {
      byte[] cut = Arrays.copyOf(file, len);
      assertThatThrownBy(() -> Retracer.inMemory(JvmTableFile.read(cut)))
          .as("table cut at " + len)
          .isInstanceOf(MappingException.class);
    }
    byte[] page = t.pages().get(0).bytes();
    for (int len = 0; len < page.length; len++) {
      byte[] cut = Arrays.copyOf(page, len);
      assertThatThrownBy(() -> JvmPages.decode(cut))
          .as("page cut at " + len)
          .isInstanceOf(MappingException.class)
          .hasMessageContaining("corrupt table");
    }
    // a huge count must not allocate a huge array
    assertThatThrownBy(
            () -> JvmPages.decode(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0x7f}))
        .isInstanceOf(MappingException.class)
        .hasMessageContaining("exceeds the data");
  }

  @Test
  void nonUtf8BytesDoNotBreakParsing() {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.writeBytes("bad.Na".getBytes(StandardCharsets.US_ASCII));
    b.writeBytes(new byte[] {(byte) 0xff, (byte) 0xfe, (byte) 0xc3});
    b.writeBytes(
        "me -> a:\n    1:1:void m\u00e9thode():10 -> a\n".getBytes(StandardCharsets.ISO_8859_1));
    b.writeBytes(
        "good.Name -> b:\n    1:1:void run():20 -> a\n".getBytes(StandardCharsets.US_ASCII));
    Retracer r = retracer(b.toByteArray());
    assertThat(r.remapClass("a")).startsWith("bad.Na").endsWith("me").contains("\ufffd");
    assertThat(r.retrace("a", "a", 1).frames().get(0).method()).isEqualTo("m\ufffdthode");
    assertThat(r8(r, "\tat b.a(SourceFile:1)\n")).isEqualTo("\tat good.Name.run(Name.java:20)\n");
  }

  @Test
  void crlfAndBomAreAccepted() {
    String m = "\ufeffsome.Klass -> a:\r\n    1:1:void one():10 -> a\r\n";
    Retracer r = retracer(m);
    assertThat(r.remapClass("a")).isEqualTo("some.Klass");
    assertThat(r.retrace("a", "a", 1).frames())
        .extracting(RetracedFrame::method)
        .containsExactly("one");
    assertThat(r8(r, "x.Y\r\n\tat a.a(SourceFile:1)\r\n"))
        .isEqualTo("x.Y\n\tat some.Klass.one(Klass.java:10)\n");
  }

  @Test
  void sourceFileMetadataInEitherKeyOrderAndWithEscapes() {
    String m =
        "a.A -> a:\n# {\"fileName\":\"A.kt\",\"id\":\"sourceFile\"}\n    1:1:void f():1 -> f\n"
            + "b.B -> b:\n# {\"id\":\"sourceFile\",\"fileName\":\"B.scala\"}\n    1:1:void f():2 -> f\n"
            + "c.C -> c:\n# {\"id\":\"sourceFile\",\"fileName\":\"We\\\"ird\\u0041.kt\"}\n    1:1:void f():3 -> f\n";
    Retracer r = retracer(m);
    assertThat(r.retrace("a", "f", 1).frames().get(0).declaredFile()).isEqualTo("A.kt");
    assertThat(r.retrace("b", "f", 1).frames().get(0).declaredFile()).isEqualTo("B.scala");
    assertThat(r.retrace("c", "f", 1).frames().get(0).declaredFile()).isEqualTo("We\"irdA.kt");
  }

  @Test
  void unknownMetadataIsIgnored() {
    String m =
        "# {\"id\":\"com.example.future\",\"nested\":{\"a\":[1,2,{\"b\":null}]}}\n"
            + "some.Klass -> a:\n"
            + "# {\"id\":\"sourceFile\",\"fileName\":\"Klass.kt\",\"extra\":[true]}\n"
            + "# {not json at all\n"
            + "    1:1:void one():10 -> a\n"
            + "    # {\"id\":\"com.android.tools.r8.residualsignature\",\"signature\":\"()V\"}\n"
            + "    # {\"id\":\"com.android.tools.r8.rewriteFrame\",\"conditions\":[\"somethingNew()\"],\"actions\":[\"removeInnerFrames(1)\"]}\n";
    ParsedMapping pm = MappingParser.parse(m.getBytes(StandardCharsets.UTF_8));
    assertThat(pm.malformedLines).isZero();
    Retracer r = Retracer.inMemory(JvmTableBuilder.build(pm));
    assertThat(r8(r, "java.lang.NullPointerException\n\tat a.a(SourceFile:1)\n"))
        .isEqualTo("java.lang.NullPointerException\n\tat some.Klass.one(Klass.kt:10)\n");
    assertThat(List.of(r.retrace("a", "a", 1).frames().get(0).rules())).hasSize(1);
  }

  @Test
  void methodFlagsOfTensOfThousandsOfMethodsReachEachOfTheirLines() {
    // one class, 40,000 methods of two lines each, the first line flagged: every flagged line was
    // compared with every member of the class (7 s)
    int n = 40_000;
    StringBuilder sb = new StringBuilder("a.A -> a:\n");
    for (int i = 0; i < n; i++) {
      sb.append("    1:1:void m").append(i).append("():10 -> b\n");
      sb.append(
          i % 2 == 0
              ? "      # {\"id\":\"com.android.tools.r8.synthesized\"}\n"
              : "      # {\"id\":\"com.android.tools.r8.outline\"}\n");
      sb.append("    2:2:void m").append(i).append("():20 -> b\n");
    }
    sb.append("    3:3:void plain():30 -> b\n");
    // inlined from another class with the same signature: another method, not flagged
    sb.append("    4:4:void other.C.m0():40 -> b\n");
    ParsedMapping pm = MappingParser.parse(sb.toString().getBytes(StandardCharsets.UTF_8));
    List<ParsedMapping.ParsedMember> members = pm.classes.get(0).members;
    assertThat(members).hasSize(2 * n + 2);
    for (int i = 0; i < 2 * n; i++) {
      ParsedMapping.ParsedMember m = members.get(i);
      assertThat(m.synthesized).as(m.name + " line " + m.obfStart).isEqualTo((i / 2) % 2 == 0);
      assertThat(m.outline).as(m.name + " line " + m.obfStart).isEqualTo((i / 2) % 2 == 1);
    }
    assertThat(members.get(2 * n).synthesized || members.get(2 * n).outline).isFalse();
    assertThat(members.get(2 * n + 1).origClass).isEqualTo("other.C");
    assertThat(members.get(2 * n + 1).synthesized).isFalse();
  }

  @Test
  void methodFlagsOfARepeatedClassReachTheLinesReadBeforeThem() {
    // a class in three blocks: the flag in the second block reaches the method's line of the
    // first block, not the line a later block adds (as when each block applied it at its end)
    String mapping =
        "a.A -> a:\n"
            + "    1:1:void m():10 -> b\n"
            + "a.A -> a:\n"
            + "    2:2:void m():20 -> b\n"
            + "      # {\"id\":\"com.android.tools.r8.synthesized\"}\n"
            + "a.A -> a:\n"
            + "    3:3:void m():30 -> b\n";
    ParsedMapping pm = MappingParser.parse(mapping.getBytes(StandardCharsets.UTF_8));
    assertThat(pm.classes).hasSize(1);
    assertThat(pm.classes.get(0).members)
        .extracting(m -> m.synthesized)
        .containsExactly(true, true, false);
  }
}
