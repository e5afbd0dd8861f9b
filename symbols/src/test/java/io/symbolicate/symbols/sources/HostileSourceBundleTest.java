package io.symbolicate.symbols.sources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;

/** Hostile source bundles: refused or skipped with a reason, nothing unpacked, no hang. */
class HostileSourceBundleTest {

  /** A zip of the given entries (written in order), with the SYSB header. */
  static byte[] bundle(Map<String, byte[]> entries) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(new byte[] {'S', 'Y', 'S', 'B', 2, 0, 0, 0});
    try (ZipOutputStream z = new ZipOutputStream(b)) {
      for (var e : entries.entrySet()) {
        z.putNextEntry(new ZipEntry(e.getKey()));
        z.write(e.getValue());
        z.closeEntry();
      }
    }
    return b.toByteArray();
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static String manifest(String... zipPaths) {
    StringBuilder b = new StringBuilder("{\"files\":{");
    for (int i = 0; i < zipPaths.length; i++) {
      if (i > 0) {
        b.append(',');
      }
      b.append('"')
          .append(zipPaths[i].replace("\\", "\\\\"))
          .append("\":{\"type\":\"source\",\"path\":\"/src/")
          .append(i)
          .append(".c\"}");
    }
    return b.append("},\"debug_id\":\"7f883fcd-c553-36d0-a809-b0150f09500b\"}").toString();
  }

  @Test
  void unsafeZipPathsAreSkippedWithAReason() throws Exception {
    Map<String, byte[]> e = new LinkedHashMap<>();
    e.put("../evil.c", utf8("int evil;"));
    e.put("/etc/passwd", utf8("root"));
    e.put("files/a\\..\\b.c", utf8("x"));
    e.put("C:/win.c", utf8("x"));
    e.put("files/ok.c", utf8("int ok;\n"));
    e.put(
        "manifest.json",
        utf8(manifest("../evil.c", "/etc/passwd", "files/a\\..\\b.c", "C:/win.c", "files/ok.c")));
    SourceBundle b = SourceBundle.read(bundle(e));
    assertThat(b.files()).extracting(SourceFile::zipPath).containsExactly("files/ok.c");
    assertThat(b.skipped())
        .containsExactly(
            "../evil.c: '..' in the path",
            "/etc/passwd: absolute path",
            "files/a\\..\\b.c: backslash in the path",
            "C:/win.c: absolute path");
  }

  @Test
  void filesTheManifestListsButTheZipLacksAreSkipped() throws Exception {
    Map<String, byte[]> e = new LinkedHashMap<>();
    e.put("manifest.json", utf8(manifest("files/there.c", "files/gone.c")));
    e.put("files/there.c", utf8("int there;"));
    SourceBundle b = SourceBundle.read(bundle(e));
    assertThat(b.files()).hasSize(1);
    assertThat(b.skipped())
        .containsExactly("files/gone.c: listed in the manifest, not in the zip (or skipped above)");
  }

  @Test
  void binaryAndNonUtf8FilesAreSkipped() throws Exception {
    Map<String, byte[]> e = new LinkedHashMap<>();
    e.put("files/bin.c", new byte[] {1, 2, 0, 3});
    e.put("files/latin1.c", new byte[] {'c', (byte) 0xE9, 'd'});
    e.put("files/bom.c", new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, 'o', 'k'});
    e.put("manifest.json", utf8(manifest("files/bin.c", "files/latin1.c", "files/bom.c")));
    SourceBundle b = SourceBundle.read(bundle(e));
    assertThat(b.files()).extracting(SourceFile::text).containsExactly("ok");
    assertThat(b.skipped())
        .containsExactly("files/bin.c: binary or not UTF-8", "files/latin1.c: binary or not UTF-8");
  }

  @Test
  void aZipBombStopsAtTheBundlesLimit() throws Exception {
    // 64 MiB of zeros deflate to ~64 KB: read only up to the (small) limit, then refused
    Map<String, byte[]> e = new LinkedHashMap<>();
    e.put("files/bomb.c", new byte[64 << 20]);
    e.put("manifest.json", utf8(manifest("files/bomb.c")));
    byte[] bytes = bundle(e);
    assertThat(bytes.length).isLessThan(1 << 20);
    SourceBundleLimits limits = new SourceBundleLimits(4 << 20, 1 << 20, 100, 1 << 20);
    assertThatThrownBy(() -> SourceBundle.read(bytes, limits))
        .isInstanceOf(SourceBundleException.class)
        .hasMessage("source bundle inflates to more than 4194304 bytes");
  }

  @Test
  void aFileOverItsLimitIsSkipped() throws Exception {
    Map<String, byte[]> e = new LinkedHashMap<>();
    e.put("files/big.c", utf8("a".repeat(2000)));
    e.put("files/small.c", utf8("b"));
    e.put("manifest.json", utf8(manifest("files/big.c", "files/small.c")));
    SourceBundle b =
        SourceBundle.read(bundle(e), new SourceBundleLimits(1 << 20, 1000, 100, 10_000));
    assertThat(b.files()).extracting(SourceFile::text).containsExactly("b");
    assertThat(b.skipped()).first().isEqualTo("files/big.c: larger than 1000 bytes");
  }

  @Test
  void tooManyEntriesAndNoManifestAndNotAZipAreRefused() throws Exception {
    Map<String, byte[]> e = new LinkedHashMap<>();
    for (int i = 0; i < 11; i++) {
      e.put("files/" + i + ".c", utf8("x"));
    }
    byte[] many = bundle(e);
    assertThatThrownBy(
            () -> SourceBundle.read(many, new SourceBundleLimits(1 << 20, 1000, 10, 1000)))
        .hasMessage("more than 10 entries in the source bundle");
    assertThatThrownBy(() -> SourceBundle.read(many))
        .isInstanceOf(SourceBundleException.class)
        .hasMessage("no manifest.json in the source bundle");
    assertThatThrownBy(() -> SourceBundle.read(utf8("SYSB\2\0\0\0not a zip")))
        .hasMessage("not a source bundle (no SYSB header or zip entry)");
    Map<String, byte[]> bad = new LinkedHashMap<>();
    bad.put("manifest.json", utf8("{\"files\": [1, "));
    assertThatThrownBy(() -> SourceBundle.read(bundle(bad)))
        .hasMessageStartingWith("manifest.json is not valid JSON");
  }

  @Test
  void aTruncatedZipIsRefused() throws Exception {
    Map<String, byte[]> e = new LinkedHashMap<>();
    e.put("files/a.c", utf8("int a;".repeat(1000)));
    e.put("manifest.json", utf8(manifest("files/a.c")));
    byte[] whole = bundle(e);
    byte[] cut = java.util.Arrays.copyOf(whole, 200);
    assertThatThrownBy(() -> SourceBundle.read(cut)).isInstanceOf(SourceBundleException.class);
  }

  @Test
  void hostilePagesAreRefused() {
    assertThatThrownBy(() -> SourcePages.decode(new byte[] {'D', 0x7f, 0, 0, 0}))
        .isInstanceOf(SourcePageException.class);
    assertThatThrownBy(() -> SourcePages.decode(new byte[] {'C', 0, 0, 0, 1, 0x7f, 0, 0, 0}))
        .isInstanceOf(SourcePageException.class);
    assertThatThrownBy(() -> SourcePages.decode(new byte[] {'X'}))
        .isInstanceOf(SourcePageException.class);
    assertThatThrownBy(() -> SourcePages.decode(new byte[0]))
        .isInstanceOf(SourcePageException.class);
  }
}
