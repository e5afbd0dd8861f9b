package io.symbolicate.symbols.jvm;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.sources.SourceBundle;
import io.symbolicate.symbols.sources.SourceContext;
import io.symbolicate.symbols.sources.SourcePage;
import io.symbolicate.symbols.sources.SourcePages;
import io.symbolicate.symbols.table.PageSource;
import io.symbolicate.symbols.table.TablePage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;

/**
 * A JVM source bundle as {@code sentry-cli debug-files bundle-jvm} writes it (SYSB header, zip,
 * {@code manifest.json} listing {@code files/_/_/<path>.jvm} by URL {@code ~/<path>.jvm}) turned
 * into a JVM table of source pages; the context of a frame's line is the file's own lines.
 */
class JvmSourceBundleTest {
  static final String ID = "d832c2fb-c545-425b-b673-613a133586be";

  static final String MAIN =
      String.join(
          "\n",
          "package io.example",
          "",
          "class Main {",
          "    fun run() {",
          "        Inner().go()",
          "    }",
          "",
          "    class Inner {",
          "        fun go() {",
          "            throw IllegalStateException(\"boom\")",
          "        }",
          "    }",
          "}",
          "");

  /** A bundle of {@code files} (bundle URL path without {@code ~/} and {@code .jvm} -> bytes). */
  static byte[] bundle(String debugId, Map<String, byte[]> files) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(new byte[] {'S', 'Y', 'S', 'B', 2, 0, 0, 0});
    StringBuilder m = new StringBuilder("{\"org\":\"o\",\"project\":\"p\",\"debug_id\":\"");
    m.append(debugId).append("\",\"files\":{");
    try (ZipOutputStream z = new ZipOutputStream(b)) {
      int i = 0;
      for (var e : files.entrySet()) {
        String zipPath = "files/_/_/" + e.getKey() + ".jvm";
        if (e.getValue() != null) {
          z.putNextEntry(new ZipEntry(zipPath));
          z.write(e.getValue());
          z.closeEntry();
        }
        m.append(i++ > 0 ? "," : "")
            .append('"')
            .append(zipPath)
            .append("\":{\"url\":\"~/")
            .append(e.getKey())
            .append(".jvm\"}");
      }
      z.putNextEntry(new ZipEntry("manifest.json"));
      z.write(m.append("}}").toString().getBytes(StandardCharsets.UTF_8));
      z.closeEntry();
    }
    return b.toByteArray();
  }

  static PageSource<SourcePage> pages(JvmTable t) {
    TreeMap<Long, SourcePage> byKey = new TreeMap<>(Long::compareUnsigned);
    for (TablePage p : t.pages()) {
      if (SourcePages.isSourceKey(p.firstKey())) {
        byKey.put(p.firstKey(), SourcePages.decode(p.bytes()));
      }
    }
    return key -> {
      var e = byKey.floorEntry(key);
      return e == null ? null : e.getValue();
    };
  }

  @Test
  void aFramesLineGetsTheLinesAroundItFromTheBundle() throws Exception {
    byte[] b = bundle(ID, Map.of("io/example/Main", MAIN.getBytes(StandardCharsets.UTF_8)));
    List<String> skipped = new ArrayList<>();
    JvmTable t = JvmSourceBundle.table(SourceBundle.read(b), 1 << 20, skipped);
    assertThat(skipped).isEmpty();
    assertThat(t.pages().get(0).firstKey()).isZero();
    JvmHeader h = JvmHeader.decode(t.header());
    assertThat(h.compiler()).isEqualTo(JvmSourceBundle.COMPILER);
    assertThat(h.mapId()).isEqualTo(ID);
    assertThat(h.classCount()).isZero();

    String url = JvmSourcePath.of("io.example.Main$Inner", "Main.kt");
    SourceContext c = SourcePages.context(pages(t), url, 10, 2);
    String[] lines = MAIN.split("\n", -1);
    assertThat(c.preContext()).containsExactly(lines[7], lines[8]);
    assertThat(c.contextLine()).isEqualTo(lines[9]);
    assertThat(c.postContext()).containsExactly(lines[10], lines[11]);
    // the first line: nothing before it
    SourceContext first = SourcePages.context(pages(t), "~/io/example/Main.jvm", 1, 5);
    assertThat(first.preContext()).isEmpty();
    assertThat(first.contextLine()).isEqualTo("package io.example");
    assertThat(first.postContext()).hasSize(5);
    // past the file's end, or a class of another file: none
    assertThat(SourcePages.context(pages(t), url, 400, 5)).isNull();
    assertThat(SourcePages.context(pages(t), JvmSourcePath.of("io.example.Other", null), 1, 5))
        .isNull();
  }

  @Test
  void hostileFilesAreLeftOutWithAReason() throws Exception {
    Map<String, byte[]> files = new LinkedHashMap<>();
    files.put("io/example/Main", MAIN.getBytes(StandardCharsets.UTF_8));
    files.put("io/example/Missing", null); // listed, not in the zip
    files.put("io/example/Binary", new byte[] {'a', 0, 'b', '\n'});
    files.put("io/example/Latin1", "caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
    files.put("../../etc/Evil", "root\n".getBytes(StandardCharsets.UTF_8));
    List<String> skipped = new ArrayList<>();
    JvmTable t = JvmSourceBundle.table(SourceBundle.read(bundle(ID, files)), 1 << 20, skipped);
    assertThat(skipped)
        .containsExactlyInAnyOrder(
            "files/_/_/io/example/Missing.jvm: listed in the manifest, not in the zip (or skipped"
                + " above)",
            "files/_/_/io/example/Binary.jvm: binary or not UTF-8",
            "files/_/_/io/example/Latin1.jvm: binary or not UTF-8",
            "files/_/_/../../etc/Evil.jvm: '..' in the path");
    PageSource<SourcePage> p = pages(t);
    assertThat(SourcePages.context(p, "~/io/example/Main.jvm", 3, 1).contextLine())
        .isEqualTo("class Main {");
    for (String gone : List.of("Missing", "Binary", "Latin1")) {
      assertThat(SourcePages.context(p, JvmSourcePath.of("io.example." + gone, null), 1, 1))
          .isNull();
    }
    assertThat(SourcePages.context(p, "~/../../etc/Evil.jvm", 1, 1)).isNull();
  }

  @Test
  void keysAndObjectKeys() {
    assertThat(JvmSourceBundle.moduleKey(ID.toUpperCase())).isEqualTo("source/" + ID);
    assertThat(JvmSourceBundle.isModuleKey("source/" + ID)).isTrue();
    assertThat(JvmSourceBundle.isModuleKey(ID)).isFalse();
    assertThat(JvmSourceBundle.uuidOf("source/" + ID)).isEqualTo(ID);
    assertThat(JvmSourceBundle.objectKeys(ID))
        .containsExactly(
            "d8/32c2fbc545425bb673613a133586be/sourcebundle",
            "d8/32c2fbc545425bb673613a133586be0/sourcebundle");
  }
}
