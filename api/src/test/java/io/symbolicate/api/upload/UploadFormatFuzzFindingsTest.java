package io.symbolicate.api.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Findings of the api-upload fuzz target (docs/fuzzing.md), each a test of its own: a bad file is
 * the client's 400, not an IOException the route answers with 500.
 */
class UploadFormatFuzzFindingsTest {
  @TempDir Path dir;

  @Test
  void aSourcemapWhoseGzipIsCorruptIsAnInvalidFile() throws Exception {
    ByteArrayOutputStream gz = new ByteArrayOutputStream();
    try (GZIPOutputStream g = new GZIPOutputStream(gz)) {
      g.write(
          "{\"version\": 3, \"sources\": [\"a.js\"], \"names\": [], \"mappings\": \"AAAA\"}"
              .getBytes(StandardCharsets.UTF_8));
    }
    byte[] whole = gz.toByteArray();
    JsFormat f =
        JsFormat.of(
            JsFormat.Kind.SOURCEMAP, null, "1.0", null, "https://example.com/a.js.map", 1 << 20);
    // cut inside the deflate stream, and a corrupt trailer
    byte[] badTrailer = whole.clone();
    badTrailer[badTrailer.length - 5] ^= 0x55;
    for (byte[] bad : new byte[][] {Arrays.copyOf(whole, whole.length - 10), badTrailer}) {
      Path file = Files.write(dir.resolve("map-" + bad.length), bad);
      assertThatThrownBy(() -> f.place("global", "x", file, dir))
          .isInstanceOfSatisfying(UploadError.class, e -> assertThat(e.status()).isEqualTo(400))
          .hasMessageContaining("not a valid sourcemap");
    }
    // and the whole one is placed
    assertThat(f.place("global", "x", Files.write(dir.resolve("ok"), whole), dir)).hasSize(1);
  }

  @Test
  void aZipWhoseEntryIsCutShortIsAnInvalidFile() throws Exception {
    // the fuzzer's input: a zip whose entry's data runs past the end of the file
    Path fuzzed =
        Path.of(
            getClass()
                .getResource("UploadFuzzTestsInputs/upload/regression-breakpad-zip-truncated-entry")
                .toURI());
    byte[] input = Files.readAllBytes(fuzzed);
    Path bad = Files.write(dir.resolve("bad.zip"), Arrays.copyOfRange(input, 1, input.length));
    assertThatThrownBy(
            () ->
                new BreakpadFormat(1 << 20)
                    .place("global", "x", bad, Files.createDirectory(dir.resolve("work"))))
        .isInstanceOfSatisfying(UploadError.class, e -> assertThat(e.status()).isEqualTo(400))
        .hasMessageContaining("not a valid zip");
  }
}
