package io.symbolicate.symbolication.jvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.symbolicate.connectors.loader.jvm.JvmTableConverter;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.JvmFrame;
import io.symbolicate.schema.JvmModule;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.symbolication.store.TablesLookup;
import io.symbolicate.symbols.jvm.JvmSourceBundle;
import io.symbolicate.symbols.sources.SourceBundle;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.testkit.events.SampleEvents;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;

/**
 * Source context in the JVM step: an event naming a mapping and a source bundle ({@code type:
 * source}) gets, on every frame with a line whose file the bundle holds, the lines around it: the
 * file's own lines. Retraced frames are looked up by their original class, others by the class
 * they were sent with (as Symbolicator does); none with context off or without the bundle.
 */
class JvmSourceContextTest {
  static final String MAPPING_ID = "5d3f7b0e-1c2a-4e6b-9a8d-0f1e2d3c4b5a";
  static final String BUNDLE_ID = "d832c2fb-c545-425b-b673-613a133586be";
  static final ModuleRef MAPPING = new ModuleRef("global", TableKind.JVM, MAPPING_ID);
  static final ModuleRef BUNDLE =
      new ModuleRef("global", TableKind.JVM, JvmSourceBundle.moduleKey(BUNDLE_ID));

  static final String[] CHECKOUT = {
    "package io.example", // 1
    "",
    "class Checkout {",
    "    fun pay() {",
    "        Helper().charge()", // 5
    "    }",
    "",
    "    class Helper {",
    "        fun charge() {",
    "            error(\"declined\")", // 10
    "        }",
    "    }",
    "}"
  };

  static final String MAPPING_TXT =
      "io.example.Checkout -> a.a:\n"
          + "# {\"id\":\"sourceFile\",\"fileName\":\"Checkout.kt\"}\n"
          + "    1:1:void pay():5:5 -> a\n"
          + "io.example.Checkout$Helper -> a.b:\n"
          + "# {\"id\":\"sourceFile\",\"fileName\":\"Checkout.kt\"}\n"
          + "    3:3:void charge():10:10 -> b\n";

  static byte[] bundle() throws IOException {
    String zipPath = "files/_/_/io/example/Checkout.jvm";
    String manifest =
        "{\"org\":\"o\",\"project\":\"p\",\"debug_id\":\""
            + BUNDLE_ID
            + "\",\"files\":{\""
            + zipPath
            + "\":{\"url\":\"~/io/example/Checkout.jvm\"}}}";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(new byte[] {'S', 'Y', 'S', 'B', 2, 0, 0, 0});
    try (ZipOutputStream zip = new ZipOutputStream(out)) {
      zip.putNextEntry(new ZipEntry(zipPath));
      zip.write(String.join("\n", CHECKOUT).getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
      zip.putNextEntry(new ZipEntry("manifest.json"));
      zip.write(manifest.getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
    }
    return out.toByteArray();
  }

  static TablesLookup lookup(boolean withBundle) throws Exception {
    TablesLookup l =
        new TablesLookup()
            .found(
                MAPPING,
                new JvmTableConverter()
                    .convert(
                        new ByteArrayInputStream(MAPPING_TXT.getBytes(StandardCharsets.UTF_8)),
                        1 << 20));
    return withBundle
        ? l.found(
            BUNDLE, JvmSourceBundle.table(SourceBundle.read(bundle()), 1 << 20, new ArrayList<>()))
        : l.negative(BUNDLE, TableStatus.missing, "not found");
  }

  /** Frames: a.b.b:3 (Helper.charge:10), a.a.a:1 (Checkout.pay:5), and two no mapping knows. */
  static CrashEvent event(boolean withMapping) {
    CrashEvent e = SampleEvents.jvmEvent("jvm-src");
    List<JvmModule> modules = new ArrayList<>();
    if (withMapping) {
      modules.add(new JvmModule("proguard", MAPPING_ID));
    }
    modules.add(new JvmModule("source", BUNDLE_ID));
    e.getJvm().setModules(modules);
    e.getJvm()
        .getExceptions()
        .get(0)
        .setFrames(
            List.of(
                JvmFrame.newBuilder().setModule("a.b").setFunction("b").setLineno(3).build(),
                JvmFrame.newBuilder().setModule("a.a").setFunction("a").setLineno(1).build(),
                JvmFrame.newBuilder()
                    .setModule("io.example.Checkout$Helper")
                    .setFunction("charge")
                    .setFilename("SourceFile")
                    .setLineno(9)
                    .build(),
                JvmFrame.newBuilder()
                    .setModule("java.lang.Thread")
                    .setFunction("run")
                    .setFilename("Thread.java")
                    .setLineno(1012)
                    .build()));
    return e;
  }

  static List<String> lines(int from, int to) {
    return Arrays.asList(CHECKOUT).subList(from - 1, to);
  }

  /** Context lines are kept as UTF-8 bytes (CharSequence): compared by their text. */
  static List<String> texts(List<? extends CharSequence> lines) {
    return lines.stream().map(CharSequence::toString).toList();
  }

  static List<SymbolicatedFrame> frames(SymbolicatedEvent out) {
    return out.getStacks().get(0).getFrames();
  }

  @Test
  void retracedAndUnknownFramesGetTheirFilesLines() throws Exception {
    JvmSymbolicator step = new JvmSymbolicator();
    assertThat(step.modulesNeeded(event(true))).containsExactly(MAPPING, BUNDLE);
    SymbolicatedEvent out = step.symbolicate(event(true), lookup(true), 0);
    List<SymbolicatedFrame> f = frames(out);
    assertThat(f).hasSize(4);

    assertThat(f.get(0).getClassName()).isEqualTo("io.example.Checkout$Helper");
    assertThat(f.get(0).getLine()).isEqualTo(10);
    assertThat(texts(f.get(0).getPreContext())).isEqualTo(lines(5, 9));
    assertThat(String.valueOf(f.get(0).getContextLine())).isEqualTo(CHECKOUT[9]);
    assertThat(texts(f.get(0).getPostContext())).isEqualTo(lines(11, 13));

    assertThat(f.get(1).getClassName()).isEqualTo("io.example.Checkout");
    assertThat(texts(f.get(1).getPreContext())).isEqualTo(lines(1, 4));
    assertThat(String.valueOf(f.get(1).getContextLine())).isEqualTo(CHECKOUT[4]);
    assertThat(texts(f.get(1).getPostContext())).isEqualTo(lines(6, 10));

    // no mapping knows the class: its own name and line find the file (Symbolicator's rule)
    assertThat(f.get(2).getStatus()).isEqualTo(FrameStatus.no_symbol);
    assertThat(String.valueOf(f.get(2).getContextLine())).isEqualTo(CHECKOUT[8]);
    // a class of no file in the bundle: none
    assertThat(f.get(3).getContextLine()).isNull();
    assertThat(f.get(3).getPreContext()).isEmpty();

    assertThat(out.getModules())
        .extracting(ModuleResult::getKey, ModuleResult::getStatus)
        .containsExactly(
            tuple(MAPPING_ID, ModuleStatus.found),
            tuple("source/" + BUNDLE_ID, ModuleStatus.found));
    assertThat(out.getMissingSymbols()).isEmpty();

    List<SymbolicatedFrame> two =
        frames(new JvmSymbolicator(2).symbolicate(event(true), lookup(true), 0));
    assertThat(texts(two.get(0).getPreContext())).isEqualTo(lines(8, 9));
    assertThat(texts(two.get(0).getPostContext())).isEqualTo(lines(11, 12));
  }

  @Test
  void aBundleAloneGivesContextToFramesAsSent() throws Exception {
    SymbolicatedEvent out = new JvmSymbolicator().symbolicate(event(false), lookup(true), 0);
    List<SymbolicatedFrame> f = frames(out);
    assertThat(f.get(2).getStatus()).isEqualTo(FrameStatus.missing_symbols);
    assertThat(f.get(2).getMessage()).isEqualTo("the event names no ProGuard mapping");
    assertThat(String.valueOf(f.get(2).getContextLine())).isEqualTo(CHECKOUT[8]);
    // obfuscated names find no file
    assertThat(f.get(0).getContextLine()).isNull();
  }

  @Test
  void offOrMissingGivesNoContextAndKeepsTheRetrace() throws Exception {
    JvmSymbolicator off = new JvmSymbolicator(0);
    assertThat(off.modulesNeeded(event(true))).containsExactly(MAPPING);
    SymbolicatedEvent o = off.symbolicate(event(true), lookup(true), 0);
    assertThat(frames(o)).allSatisfy(x -> assertThat(x.getContextLine()).isNull());
    assertThat(frames(o).get(0).getStatus()).isEqualTo(FrameStatus.symbolicated);
    assertThat(o.getModules().get(1).getStatus()).isEqualTo(ModuleStatus.unused);

    SymbolicatedEvent m = new JvmSymbolicator().symbolicate(event(true), lookup(false), 0);
    assertThat(frames(m)).allSatisfy(x -> assertThat(x.getContextLine()).isNull());
    assertThat(frames(m).get(0).getStatus()).isEqualTo(FrameStatus.symbolicated);
    assertThat(frames(m).get(0).getLine()).isEqualTo(10);
    assertThat(m.getModules().get(1).getStatus()).isEqualTo(ModuleStatus.missing);
    assertThat(m.getMissingSymbols()).containsExactly("source/" + BUNDLE_ID);
  }

  @Test
  void aSourceModuleWithoutAUuidIsAMalformedRequest() {
    CrashEvent e = event(true);
    e.getJvm().getModules().set(1, new JvmModule("source", "nope"));
    JvmSymbolicator step = new JvmSymbolicator();
    assertThat(step.modulesNeeded(e)).containsExactly(MAPPING);
  }
}
