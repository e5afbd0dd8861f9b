package io.symbolicate.symbols.io;

import static io.symbolicate.symbols.testing.Fuzzing.check;
import static io.symbolicate.symbols.testing.Fuzzing.expect;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.symbolicate.symbols.testing.Fuzzing;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Timeout;

/**
 * The cabinet reader's fuzz target (docs/fuzzing.md, {@code scripts/fuzz.sh cab}); every build
 * replays its inputs under {@code src/test/resources/.../CabFuzzTestsInputs/cab/}.
 */
class CabFuzzTests {
  /**
   * Bytes as a cabinet: its first four files extracted (up to 16 MiB each; each extraction reads
   * its folder from the start), or {@link CabFormatException}. An extracted file has exactly the
   * bytes its entry claims.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void cab(byte[] data) throws Exception {
    expect(
        data,
        () -> {
          CabFile cab = CabFile.parse(ByteBuffer.wrap(data));
          for (CabFile.Entry e : cab.files().subList(0, Math.min(4, cab.files().size()))) {
            try {
              long[] seen = {0};
              OutputStream out =
                  new OutputStream() {
                    @Override
                    public void write(int b) {
                      seen[0]++;
                    }

                    @Override
                    public void write(byte[] b, int off, int len) {
                      seen[0] += len;
                    }
                  };
              long n = cab.extract(e, out, 16L << 20);
              check(n == e.size() && seen[0] == n, "extracted size differs from the entry's");
            } catch (CabFormatException skipped) {
              // the next entry may still read
            }
          }
        },
        CabFormatException.class);
  }
}
