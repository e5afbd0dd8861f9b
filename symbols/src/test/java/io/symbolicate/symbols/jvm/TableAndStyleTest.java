package io.symbolicate.symbols.jvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.symbols.table.InMemoryPageSource;
import io.symbolicate.symbols.table.PageSource;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.table.TablePage;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Table format, paging, the R8 presentation rules and the mapping locator. */
class TableAndStyleTest {

  private static byte[] fixture(String path) throws IOException {
    return Files.readAllBytes(SharedFixtures.fixtures("jvm").resolve(path));
  }

  @Test
  void smallPagesSplitTheTableAndEveryLookupTouchesOnePage() throws IOException {
    ParsedMapping pm = MappingParser.parse(fixture("getsentry-rust-proguard/mapping-r8.txt"));
    JvmTable t = JvmTableBuilder.build(pm, 2048);
    assertThat(t.kind()).isEqualTo(TableKind.JVM);
    assertThat(t.pages().size()).isGreaterThan(50);
    assertThat(t.pages().get(0).firstKey()).isZero();
    for (TablePage p : t.pages()) {
      assertThat(p.bytes().length).isLessThan(64 * 1024);
    }
    assertThat(t.header().length).isLessThan(1024);
    InMemoryPageSource<JvmPage> pages = new InMemoryPageSource<>(t.pages(), JvmPages::decode);
    AtomicInteger touched = new AtomicInteger();
    PageSource<JvmPage> counting =
        key -> {
          touched.incrementAndGet();
          return pages.floor(key);
        };
    Retracer r = new Retracer(JvmHeader.decode(t.header()), counting);
    for (ParsedMapping.ParsedClass c : pm.classes) {
      touched.set(0);
      assertThat(r.remapClass(c.obfuscated)).isEqualTo(c.original);
      assertThat(touched.get()).isEqualTo(1);
      for (ParsedMapping.ParsedMember m : c.members) {
        touched.set(0);
        FrameResult fr = r.retrace(c.obfuscated, m.obfName, m.obfEnd > 0 ? m.obfStart : 0);
        assertThat(fr.status()).isEqualTo(FrameResult.Status.MAPPED);
        assertThat(touched.get()).isEqualTo(1);
      }
    }
    assertThat(r.remapClass("no.such.Class")).isNull();
  }

  @Test
  void tableFileRoundTripsAndRetracesTheSame() throws IOException {
    byte[] mapping = fixture("getsentry-rust-proguard/mapping-inlines.txt");
    JvmTable t = JvmPages.fromMapping(mapping);
    JvmTable back = JvmTableFile.read(JvmTableFile.toBytes(t));
    assertThat(back.pages()).hasSameSizeAs(t.pages());
    String trace =
        "java.lang.RuntimeException: x\n\tat io.sentry.sample.MainActivity.t(MainActivity.java:1)\n";
    String a = new TraceRetracer(Retracer.inMemory(t), TraceRetracer.Style.R8).retrace(trace);
    String b = new TraceRetracer(Retracer.inMemory(back), TraceRetracer.Style.R8).retrace(trace);
    assertThat(b).isEqualTo(a);
    assertThat(a.split("\n")).hasSize(4);
    assertThat(JvmTableFile.toBytes(t).length).isLessThan(mapping.length / 2);
  }

  @Test
  void directRetracerAgreesWithTheTable() throws IOException {
    for (String f :
        List.of(
            "getsentry-rust-proguard/mapping-r8.txt",
            "getsentry-rust-proguard/mapping-inlines.txt",
            "getsentry-rust-proguard/mapping-rewrite-complex.txt")) {
      ParsedMapping pm = MappingParser.parse(fixture(f));
      Retracer viaTable = Retracer.inMemory(JvmTableBuilder.build(pm, 4096));
      Retracer direct = JvmTableBuilder.directRetracer(pm);
      for (ParsedMapping.ParsedClass c : pm.classes) {
        assertThat(direct.remapClass(c.obfuscated)).isEqualTo(viaTable.remapClass(c.obfuscated));
        for (ParsedMapping.ParsedMember m : c.members) {
          for (int line : new int[] {0, m.obfStart, m.obfEnd, m.obfEnd + 1}) {
            String want = deep(viaTable.retrace(c.obfuscated, m.obfName, line, true));
            String got = deep(direct.retrace(c.obfuscated, m.obfName, line, true));
            if (!got.equals(want)) { // AssertJ's recursive comparison took a minute for these maps
              assertThat(got)
                  .as(f + " " + c.obfuscated + "." + m.obfName + ":" + line)
                  .isEqualTo(want);
            }
          }
        }
      }
    }
  }

  /** Every field of a result, rewrite rules' arrays by content (records compare arrays by identity). */
  private static String deep(FrameResult r) {
    StringBuilder sb =
        new StringBuilder()
            .append(r.status())
            .append('|')
            .append(r.originalClass())
            .append('|')
            .append(r.classSourceFile());
    for (RetracedFrame fr : r.frames()) {
      sb.append("\n")
          .append(fr.className())
          .append('|')
          .append(fr.method())
          .append('|')
          .append(fr.line())
          .append('|')
          .append(fr.declaredFile())
          .append('|')
          .append(fr.outerSourceFile())
          .append('|')
          .append(fr.synthesized())
          .append('|')
          .append(fr.methodId())
          .append('|')
          .append(fr.chainEntry())
          .append('|')
          .append(fr.alternative());
      if (fr.rules() != null) {
        for (RewriteRule rule : fr.rules()) {
          sb.append('|')
              .append(Arrays.toString(rule.throwsDescriptors()))
              .append(',')
              .append(rule.hasUnknownCondition())
              .append(',')
              .append(rule.removeInnerFrames());
        }
      }
    }
    return sb.toString();
  }

  @Test
  void parallelParseEqualsSequentialParse() throws IOException {
    byte[] data = fixture("getsentry-rust-proguard/mapping-r8.txt");
    // a class mapped twice across the split point, and a malformed line in the second half
    String extra =
        "\nandroid.arch.core.executor.ArchTaskExecutor -> a.a.a.a.c:\n    7:7:void again():70 -> zz\nbroken line\n";
    byte[] all = new byte[data.length + extra.length()];
    System.arraycopy(data, 0, all, 0, data.length);
    System.arraycopy(extra.getBytes(StandardCharsets.UTF_8), 0, all, data.length, extra.length());
    ParsedMapping seq = MappingParser.parse(all);
    ParsedMapping par = MappingParser.parseParallel(all, 0);
    assertThat(par.classes.size()).isEqualTo(seq.classes.size());
    assertThat(par.methodLineCount).isEqualTo(seq.methodLineCount);
    assertThat(par.duplicateClasses).isEqualTo(seq.duplicateClasses).isEqualTo(1);
    assertThat(par.malformedLines).isEqualTo(seq.malformedLines).isEqualTo(1);
    assertThat(par.firstMalformedLine).isEqualTo(seq.firstMalformedLine);
    assertThat(par.compilerVersion).isEqualTo("1.3.49");
    Retracer a = JvmTableBuilder.directRetracer(seq);
    Retracer b = JvmTableBuilder.directRetracer(par);
    for (ParsedMapping.ParsedClass c : seq.classes) {
      for (ParsedMapping.ParsedMember m : c.members) {
        assertThat(b.retrace(c.obfuscated, m.obfName, m.obfStart))
            .usingRecursiveComparison()
            .isEqualTo(a.retrace(c.obfuscated, m.obfName, m.obfStart));
      }
    }
    assertThat(b.retrace("a.a.a.a.c", "zz", 7).frames().get(0).line()).isEqualTo(70);
  }

  @Test
  void frameParserHashesMatchStringHashCode() {
    for (String l :
        List.of(
            "\tat a.b.C$D.m$1(SourceFile:3)",
            "  at java.base/java.util.X.y(X.java:1)",
            "at app//com.Ünï.çødé(Foo.kt:2)",
            "at a.b(Unknown Source)",
            "\tat x.<init>(:0)")) {
      StackTraceLine.Frame f = StackTraceLine.parseFrame(l);
      assertThat(f).as(l).isNotNull();
      assertThat(f.classHash).as(l).isEqualTo(f.className().hashCode());
      assertThat(f.methodHash).as(l).isEqualTo(f.method().hashCode());
    }
  }

  @Test
  void headerCarriesMapFacts() throws IOException {
    JvmTable t =
        JvmPages.fromMapping(
            fixture("getsentry-rust-proguard/mapping-r8-symbolicated_file_names.txt"));
    JvmHeader h = JvmHeader.decode(t.header());
    assertThat(h.compiler()).isEqualTo("R8");
    assertThat(h.compilerVersion()).isEqualTo("8.3.36");
    assertThat(h.minApi()).isEqualTo(24);
    assertThat(h.mapId()).isEqualTo("48ffd94");
    assertThat(h.mapVersion()).isEqualTo("2.2");
    byte[] bad = t.header().clone();
    bad[5] = 99;
    assertThatThrownBy(() -> JvmHeader.decode(bad))
        .hasMessageContaining("unsupported JVM table format version 99");
  }

  /**
   * R8 presentation rules. Expected texts are what R8 retrace 8.5.35 printed for these inputs
   * (run by hand while writing scripts/jvm-crosscheck.sh).
   */
  @Test
  void r8StyleAmbiguityMatchesR8() {
    String mapping =
        "some.Klass -> a:\n"
            + "    1:10:void zeta(int) -> a\n"
            + "    5:5:void inl2():20:20 -> a\n"
            + "    5:5:void inl1():30 -> a\n"
            + "    5:5:void beta(int):40 -> a\n"
            + "    1:10:void alpha(long) -> a\n"
            + "    1:10:void alpha(int) -> a\n"
            + "    7:7:void gamma():70:70 -> a\n"
            + "    void nolines() -> b\n"
            + "    3:4:void withlines():13:14 -> b\n"
            + "some.Other -> b:\n"
            + "    1:2:void x():5:6 -> c\n"
            + "    100:200:void foo():10:110 -> d\n"
            + "    100:200:void bar():5 -> d\n"
            + "    150:150:void baz():7:7 -> d\n"
            + "    150:150:void bar():6 -> d\n";
    Retracer r = Retracer.inMemory(JvmPages.fromMapping(mapping.getBytes(StandardCharsets.UTF_8)));
    String in =
        "java.lang.Foo\n\tat a.a(SourceFile:5)\n\tat a.a(SourceFile:99)\n\tat a.b(SourceFile:9)\n"
            + "\tat a.b(SourceFile)\n\tat b.c(Foo.kt:9)\n\tat b.c(Native Method)\n\tat b.d(SourceFile:150)\n"
            + "Caused by: b: msg a.a\n\tat b.c\n";
    String expected =
        "java.lang.Foo\n"
            + "\tat some.Klass.alpha(Klass.java:5)\n"
            + "\t<OR> at some.Klass.inl2(Klass.java:20)\n"
            + "\t<OR> at some.Klass.zeta(Klass.java:5)\n"
            + "\tat some.Klass.alpha(Klass.java:5)\n"
            + "\t<OR> at some.Klass.inl1(Klass.java:30)\n"
            + "\t<OR> at some.Klass.beta(Klass.java:40)\n"
            + "\tat some.Klass.a(Klass.java:99)\n"
            + "\tat some.Klass.nolines(Klass.java:9)\n"
            + "\tat some.Klass.nolines(Klass.java)\n"
            + "\tat some.Other.c(Other.kt:9)\n"
            + "\tat some.Other.x(Native Method)\n"
            + "\tat some.Other.foo(Other.java:60)\n"
            + "\tat some.Other.bar(Other.java:5)\n"
            + "Caused by: some.Other: msg a.a\n"
            + "\tat b.c\n";
    assertThat(new TraceRetracer(r, TraceRetracer.Style.R8).retrace(in)).isEqualTo(expected);
    FrameResult amb = r.retrace("a", "a", 5);
    assertThat(amb.ambiguous()).isTrue();
    assertThat(r.retrace("b", "c", 1).ambiguous()).isFalse();
  }

  @Test
  void eventRemapperRemapsExceptionsAndClassNames() throws IOException {
    Retracer r =
        Retracer.inMemory(JvmPages.fromMapping(fixture("getsentry-rust-proguard/mapping-r8.txt")));
    JvmEventRemapper m = new JvmEventRemapper(r);
    JvmEventRemapper.ExceptionInfo e =
        m.remapException(new JvmEventRemapper.ExceptionInfo("c", "a.a.a.a"));
    assertThat(e)
        .isEqualTo(
            new JvmEventRemapper.ExceptionInfo("ArchTaskExecutor", "android.arch.core.executor"));
    List<String> names = new ArrayList<>(List.of("a.a.a.a.c", "not.Mapped"));
    assertThat(m.remapClasses(names))
        .containsExactly(Map.entry("a.a.a.a.c", "android.arch.core.executor.ArchTaskExecutor"));
  }

  @Test
  void mappingLocatorKeys() {
    assertThat(MappingLocator.byUuid("A1B2C3D4E5F60718293A4B5C6D7E8F90"))
        .isEqualTo("jvm/proguard/a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90/mapping.txt");
    assertThat(MappingLocator.byRelease("my app", "com.app@1.2.3+45"))
        .isEqualTo("jvm/release/my%20app/com.app%401.2.3%2B45/mapping.txt");
    assertThat(MappingLocator.byRelease("p", "..")).isEqualTo("jvm/release/p/%2E%2E/mapping.txt");
    assertThat(
            MappingLocator.candidates(
                List.of(
                    "a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90",
                    "garbage",
                    "A1B2C3D4-E5F6-0718-293A-4B5C6D7E8F90"),
                "p",
                "1.0"))
        .containsExactly(
            "jvm/proguard/a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90/mapping.txt",
            "jvm/release/p/1.0/mapping.txt");
    assertThat(MappingLocator.candidates(List.of(), null, null)).isEmpty();
    assertThatThrownBy(() -> MappingLocator.byUuid("xyz")).hasMessageContaining("not a UUID");
    // version-5 UUID layout (RFC 4122) for the uploader-side id
    String u = MappingLocator.proguardUuid("x -> y:\n".getBytes(StandardCharsets.UTF_8));
    assertThat(u).matches("[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    assertThat(MappingLocator.proguardUuid("x -> y:\n".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(u);
  }
}
