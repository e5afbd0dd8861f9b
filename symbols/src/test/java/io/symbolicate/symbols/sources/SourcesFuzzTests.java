package io.symbolicate.symbols.sources;

import static io.symbolicate.symbols.testing.Fuzzing.check;
import static io.symbolicate.symbols.testing.Fuzzing.expect;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.symbolicate.symbols.table.InMemoryPageSource;
import io.symbolicate.symbols.table.PageSource;
import io.symbolicate.symbols.table.TablePage;
import io.symbolicate.symbols.testing.Fuzzing;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz target of the source bundle reader (docs/fuzzing.md). In every build it replays its corpus
 * under {@code src/test/resources/.../SourcesFuzzTestsInputs/sourceBundle/}; {@code
 * scripts/fuzz.sh source-bundle} runs it coverage-guided.
 */
class SourcesFuzzTests {
  /** Small limits, so that a bomb is refused within the allocation budget. */
  static final SourceBundleLimits LIMITS = new SourceBundleLimits(8 << 20, 1 << 20, 1000, 1 << 20);

  /**
   * Bytes as a source bundle: its files (safe zip paths, UTF-8 text within the limits) stored as
   * pages and read back as context lines, or {@link SourceBundleException}.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void sourceBundle(byte[] data) throws Exception {
    expect(
        data,
        () -> {
          SourceBundle b = SourceBundle.read(data, LIMITS);
          for (SourceFile f : b.files()) {
            check(SourceBundle.unsafeName(f.zipPath()) == null, "unsafe zip path taken");
            check(f.text().length() <= LIMITS.maxFileBytes(), "file over its limit");
            check(f.text().indexOf('\0') < 0, "binary file taken");
          }
          List<TablePage> pages = SourcePages.pages(b.files(), 16 << 20, new ArrayList<>());
          PageSource<SourcePage> src = new InMemoryPageSource<>(pages, SourcePages::decode);
          for (SourceFile f : b.files()) {
            String name = f.path() != null ? f.path() : f.url();
            SourceContext c = SourcePages.context(src, name, 1, 5);
            if (c != null) {
              check(c.lines() <= 11, "more than 11 context lines");
            }
          }
          b.byPath("/src/a.c");
          b.byDebugId("7f883fcd-c553-36d0-a809-b0150f09500b");
        },
        SourceBundleException.class);
    expect(data, () -> SourcePages.decode(data), SourcePageException.class);
  }
}
