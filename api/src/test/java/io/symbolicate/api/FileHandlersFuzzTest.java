package io.symbolicate.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.apple.AppleCrashReportHandler;
import io.symbolicate.api.minidump.MinidumpHandler;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Mutated dumps and reports through the file routes: each is answered, or refused with a 400 and
 * a reason; nothing else escapes (no 500).
 */
class FileHandlersFuzzTest {
  static final String B = "fuzzfuzz";

  static byte[] mutate(byte[] good, Random r) {
    byte[] m = good.clone();
    int edits = 1 + r.nextInt(16);
    for (int k = 0; k < edits; k++) {
      m[r.nextInt(m.length)] = (byte) r.nextInt(256);
    }
    return r.nextInt(4) == 0 ? Arrays.copyOf(m, 1 + r.nextInt(m.length)) : m;
  }

  void run(FileShape route, String field, byte[] good, int rounds) throws Exception {
    Random r = new Random(33);
    ApiSymbolicator symbolicator = new FakeLoaderSymbols().symbolicator();
    int answered = 0;
    for (int i = 0; i < rounds; i++) {
      byte[] body = FakeLoaderSymbols.form(B, new Object[] {field, "f", mutate(good, r)});
      try {
        JsonNode a =
            route.answer(
                FakeLoaderSymbols.parse(body, B),
                "global",
                System.currentTimeMillis() + 2000,
                symbolicator,
                ApiSettings.defaults());
        assertThat(a.get("status").asText()).isEqualTo("completed");
        answered++;
      } catch (ApiException e) {
        assertThat(e.status()).isIn(400, 413);
        assertThat(e.getMessage()).startsWith(field + ": ");
      }
    }
    assertThat(answered).isPositive();
  }

  @Test
  void mutatedMinidumps() throws Exception {
    run(
        new MinidumpHandler(DetachedSymbolication.defaults()),
        MinidumpHandler.FILE_FIELD,
        Files.readAllBytes(
            SharedFixtures.fixtures("minidump").resolve("symbolicator/tests/fixtures/windows.dmp")),
        150);
  }

  @Test
  void mutatedAppleReports() throws Exception {
    run(
        new AppleCrashReportHandler(DetachedSymbolication.defaults()),
        AppleCrashReportHandler.FILE_FIELD,
        Files.readAllBytes(
            SharedFixtures.fixtures("apple-crash").resolve("SYM/SYMTests/AppleJson.ips")),
        150);
  }
}
