package io.symbolicate.api.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM source bundle ({@code sentry-cli debug-files bundle-jvm}: no object name, files by URL
 * {@code ~/...jvm}) sent to the debug-file route is stored at its debug id in the unified layout
 * and announced as the JVM module {@code source/<uuid>}.
 */
class JvmSourceBundleUploadTest {
  static final String ID = "d832c2fb-c545-425b-b673-613a133586be";
  static final long MAX = 1L << 30;

  @TempDir Path dir;

  private Path bundle(String debugId) throws IOException {
    String zipPath = "files/_/_/io/sentry/samples/MainActivity.jvm";
    String manifest =
        "{\"org\":\"baz\",\"project\":\"bar\","
            + (debugId == null ? "" : "\"debug_id\":\"" + debugId + "\",")
            + "\"files\":{\""
            + zipPath
            + "\":{\"url\":\"~/io/sentry/samples/MainActivity.jvm\"}}}";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(new byte[] {'S', 'Y', 'S', 'B', 2, 0, 0, 0});
    try (ZipOutputStream zip = new ZipOutputStream(out)) {
      zip.putNextEntry(new ZipEntry(zipPath));
      zip.write("package io.sentry.samples\n".getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
      zip.putNextEntry(new ZipEntry("manifest.json"));
      zip.write(manifest.getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
    }
    Path f = dir.resolve("upload");
    Files.write(f, out.toByteArray());
    return f;
  }

  @Test
  void aJvmBundleGoesToItsDebugIdInTheUnifiedLayout() throws Exception {
    List<UploadFormat.Placement> p =
        new DebugFileFormat(null, null, MAX).place("acme", "u", bundle(ID), dir);
    assertThat(p).hasSize(1);
    assertThat(p.get(0).key())
        .isEqualTo("scopes/acme/d8/32c2fbc545425bb673613a133586be/sourcebundle");
    assertThat(p.get(0).module().toString()).isEqualTo("acme|P|source/" + ID);
    assertThat(p.get(0).alsoAnnounced()).isEmpty();
    // the URL's id, with or without the age, must be the manifest's
    assertThat(
            new DebugFileFormat(null, "D832C2FBC545425BB673613A133586BE0", MAX)
                .place("global", "u", bundle(ID), dir)
                .get(0)
                .key())
        .isEqualTo("d8/32c2fbc545425bb673613a133586be/sourcebundle");
  }

  @Test
  void withoutIdInTheManifestTheUrlsIdIsUsed() throws Exception {
    assertThat(
            new DebugFileFormat(null, ID, MAX)
                .place("global", "u", bundle(null), dir)
                .get(0)
                .module()
                .key())
        .isEqualTo("source/" + ID);
  }

  @Test
  void anotherIdOrNoIdIsRefused() throws Exception {
    assertThatThrownBy(
            () ->
                new DebugFileFormat(null, "5456a2d1-fb13-4749-97cd-8be3df3a3743", MAX)
                    .place("global", "u", bundle(ID), dir))
        .isInstanceOf(UploadError.class)
        .hasMessageContaining("but the source bundle's manifest names " + ID);
    assertThatThrownBy(
            () -> new DebugFileFormat(null, null, MAX).place("global", "u", bundle(null), dir))
        .isInstanceOf(UploadError.class)
        .hasMessageContaining("names no debug_id");
    assertThatThrownBy(
            () -> new DebugFileFormat(null, null, MAX).place("global", "u", bundle("xyz"), dir))
        .isInstanceOf(UploadError.class)
        .hasMessageContaining("not a UUID");
  }
}
