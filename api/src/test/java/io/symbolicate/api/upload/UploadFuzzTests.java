package io.symbolicate.api.upload;

import static io.symbolicate.symbols.testing.Fuzzing.check;
import static io.symbolicate.symbols.testing.Fuzzing.expect;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.symbolicate.symbols.testing.Fuzzing;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;

/**
 * The upload routes' readers of an assembled upload (docs/fuzzing.md): the first byte picks the
 * format, the rest is the file: a Breakpad {@code .sym} or a zip of them, a ProGuard mapping, a
 * sourcemap, a symbfile, a native debug file (ELF, Mach-O, or a zip of them). Each validates and places it, or refuses it with {@link UploadError}.
 */
class UploadFuzzTests {
  private static final long MAX_FILE_BYTES = 1 << 20;
  private static final String FILE_ID = "AAAAAAAAAAAAAAAAAAAAAA";
  private static final List<UploadFormat> FORMATS;

  static {
    try {
      FORMATS =
          List.of(
              new BreakpadFormat(MAX_FILE_BYTES),
              new ProguardFormat(null, MAX_FILE_BYTES),
              JsFormat.of(
                  JsFormat.Kind.SOURCEMAP,
                  null,
                  "1.0",
                  null,
                  "https://example.com/app.min.js.map",
                  MAX_FILE_BYTES),
              SymbfileFormat.RANGES,
              new DebugFileFormat("app", null, MAX_FILE_BYTES));
    } catch (UploadError e) {
      throw new ExceptionInInitializerError(e);
    }
    // each format's first file loads (and when fuzzing, instruments) its parser's classes:
    // seconds on a busy machine, which the first input would pay against the 10 s per input
    byte[][] files = {
      "MODULE Linux x86_64 000102030405060708090A0B0C0D0E0F0 m\nFUNC 1000 10 0 f\n".getBytes(),
      "a.b -> c:\n    int d -> e\n    1:1:void f():2:2 -> g\n".getBytes(),
      "{\"version\": 3, \"sources\": [\"a.js\"], \"names\": [], \"mappings\": \"AAAA\"}".getBytes(),
      new byte[16],
      new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0}
    };
    for (int i = 0; i < files.length; i++) {
      byte[] data = new byte[files[i].length + 1];
      data[0] = (byte) i;
      System.arraycopy(files[i], 0, data, 1, files[i].length);
      try {
        new UploadFuzzTests().upload(data);
      } catch (Exception e) {
        throw new ExceptionInInitializerError(e);
      }
    }
  }

  /**
   * Placements, or {@link UploadError} with a 4xx status (a bad file is the client's; an
   * {@code IOException} or a 5xx here would answer a bad file with a server error).
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void upload(byte[] data) throws Exception {
    if (data.length == 0) {
      return;
    }
    UploadFormat format = FORMATS.get((data[0] & 0xff) % FORMATS.size());
    byte[] file = Arrays.copyOfRange(data, 1, data.length);
    Path dir = Files.createTempDirectory("upload-fuzz");
    try {
      Path f = Files.write(dir.resolve("assembled"), file);
      Path work = Files.createDirectory(dir.resolve("work"));
      expect(
          data,
          () -> {
            try {
              List<UploadFormat.Placement> placed = format.place("global", FILE_ID, f, work);
              check(!placed.isEmpty(), "an accepted upload placed nothing");
              for (UploadFormat.Placement p : placed) {
                check(!p.key().contains(".."), "a placement key with '..': " + p.key());
              }
            } catch (UploadError e) {
              check(
                  e.status() >= 400 && e.status() < 500,
                  "a bad file answered " + e.status() + ": " + e.getMessage());
              throw e;
            }
          },
          UploadError.class);
    } finally {
      deleteTree(dir);
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
