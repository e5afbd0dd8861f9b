package io.symbolicate.api.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Symbolicator's source bundle sent to the debug-file route: stored beside its module's debug file
 * under the manifest's debug id (checked against the URL's), the module announced.
 */
class SourceBundleUploadTest {
  static final Path BUNDLE =
      SharedFixtures.fixtures("difs")
          .resolve("getsentry-symbolicator/symbols/7f/883fcdc55336d0a809b0150f09500b.src.zip");
  static final String DEBUG_ID = "7F883FCDC55336D0A809B0150F09500B0";
  static final long MAX = 1L << 30;

  @TempDir Path dir;

  private Path copy() throws Exception {
    Path f = dir.resolve("upload");
    Files.copy(BUNDLE, f, StandardCopyOption.REPLACE_EXISTING);
    return f;
  }

  @Test
  void aBundleGoesBesideItsDebugFile() throws Exception {
    List<UploadFormat.Placement> p =
        new DebugFileFormat("sentry_example", null, MAX).place("acme", "u", copy(), dir);
    assertThat(p).hasSize(1);
    assertThat(p.get(0).key())
        .isEqualTo("scopes/acme/sentry_example/" + DEBUG_ID + "/sentry_example.src.zip");
    assertThat(p.get(0).module().toString()).isEqualTo("acme|N|sentry_example/" + DEBUG_ID);
    assertThat(p.get(0).alsoAnnounced()).as("not a .pdb: the native module only").isEmpty();
    // without a name: the manifest's object_name
    assertThat(
            new DebugFileFormat(null, DEBUG_ID.toLowerCase(), MAX)
                .place("global", "u", copy(), dir)
                .get(0)
                .key())
        .isEqualTo("sentry_example/" + DEBUG_ID + "/sentry_example.src.zip");
  }

  /**
   * Beside a {@code .pdb}, which may be a Windows PDB or a Portable PDB under the same key, the
   * bundle announces the module as both (the .NET table is built again with its sources).
   */
  @Test
  void aBundleBesideAPdbAnnouncesTheNativeAndTheDotnetModule() throws Exception {
    List<UploadFormat.Placement> p =
        new DebugFileFormat("app.pdb", null, MAX).place("global", "u", copy(), dir);
    assertThat(p).hasSize(1);
    assertThat(p.get(0).key()).isEqualTo("app.pdb/" + DEBUG_ID + "/app.src.zip");
    assertThat(p.get(0).module().toString()).isEqualTo("global|N|app.pdb/" + DEBUG_ID);
    assertThat(p.get(0).alsoAnnounced())
        .extracting(Object::toString)
        .containsExactly("global|D|app.pdb/" + DEBUG_ID);
  }

  @Test
  void anotherDebugIdInTheUrlIsRefused() throws Exception {
    assertThatThrownBy(
            () ->
                new DebugFileFormat("sentry_example", "0123456789ABCDEF0123456789ABCDEF0", MAX)
                    .place("global", "u", copy(), dir))
        .isInstanceOf(UploadError.class)
        .hasMessageContaining("source bundle's manifest names " + DEBUG_ID);
  }

  @Test
  void aBundleThatDoesNotReadIsRefused() throws Exception {
    Path f = dir.resolve("bad");
    Files.write(f, new byte[] {'S', 'Y', 'S', 'B', 2, 0, 0, 0, 'n', 'o'});
    assertThatThrownBy(() -> new DebugFileFormat("x", null, MAX).place("global", "u", f, dir))
        .isInstanceOf(UploadError.class)
        .hasMessageContaining("source bundle: not a source bundle");
  }
}
