package io.symbolicate.connectors.loader;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.connectors.source.SymbolSource;
import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.table.TablePage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * How a load's failures are cached: the file's own faults (a corrupt gzip, a converter that
 * fails on it, a page too large for one record) as malformed, with one download; the source's
 * failures as fetch_failed after the retries, never malformed or missing.
 */
class ModuleFetcherTest {
  private static final ModuleRef JVM =
      new ModuleRef("global", TableKind.JVM, "1d1b7c5e-1e6c-4c79-8b5e-4d8b0d8a3f11");
  private static final ModuleRef NATIVE =
      new ModuleRef("global", TableKind.NATIVE, "app.pdb/0123456789ABCDEF0123456789ABCDEF1");

  private final List<ModuleState> published = new ArrayList<>();
  private final AtomicInteger fetches = new AtomicInteger();

  private final TableSink sink =
      new TableSink() {
        @Override
        public ModuleState publishFound(
            ModuleRef ref, CompactTable table, String source, long now) {
          ModuleState s = state(ref, TableStatus.found, "found");
          published.add(s);
          return s;
        }

        @Override
        public ModuleState publishNegative(
            ModuleRef ref,
            TableStatus status,
            int formatVersion,
            String message,
            String source,
            long now,
            long retryAfter) {
          ModuleState s = state(ref, status, message);
          published.add(s);
          return s;
        }

        @Override
        public void deletePages(ModuleRef ref, long generation, List<Long> pageKeys) {
          deleted.add(generation + ":" + pageKeys);
        }
      };
  private final List<String> deleted = new ArrayList<>();

  private static ModuleState state(ModuleRef ref, TableStatus status, String message) {
    return ModuleState.newBuilder()
        .setModule(ref.toString())
        .setStatus(status)
        .setFormatVersion(0)
        .setGeneration(0)
        .setHeader(null)
        .setPageCount(0)
        .setPageKeys(List.of())
        .setTableBytes(0)
        .setSource("test")
        .setMessage(message)
        .setUpdatedAt(Instant.EPOCH)
        .setLastUsed(null)
        .setRetryAfter(null)
        .build();
  }

  private ModuleFetcher fetcher(
      Supplier<InputStream> body, Map<TableKind, TableConverter> converters) {
    return fetcher(key -> new FetchResult.Found("test:" + key, -1, body.get()), converters);
  }

  private ModuleFetcher fetcher(
      Function<String, FetchResult> answer, Map<TableKind, TableConverter> converters) {
    SymbolSource source =
        new SymbolSource() {
          @Override
          public String name() {
            return "test";
          }

          @Override
          public FetchResult fetch(String key) {
            fetches.incrementAndGet();
            return answer.apply(key);
          }
        };
    LoaderSettings d = LoaderSettings.defaults();
    LoaderSettings settings =
        new LoaderSettings(
            1,
            3,
            Duration.ofMillis(1),
            d.missingRetry(),
            d.malformedRetry(),
            d.failedRetry(),
            d.unusedTtl(),
            d.maxInputBytes(),
            d.coalesceWindow(),
            d.cpuBudget(),
            false);
    return new ModuleFetcher(
        new SourceChain(List.of(source)),
        converters,
        TestEngines.locators(),
        settings,
        new SymbolLoader.Stats());
  }

  /** A converter of {@code kind} (format version 1) that reads its input, then answers {@code table}. */
  private static TableConverter converter(TableKind kind, Supplier<CompactTable> table) {
    return new TableConverter() {
      @Override
      public TableKind kind() {
        return kind;
      }

      @Override
      public int formatVersion() {
        return 1;
      }

      @Override
      public CompactTable convert(InputStream in, long maxInputBytes) throws IOException {
        in.readAllBytes();
        return table.get();
      }
    };
  }

  private static byte[] gzip(String text) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    try (GZIPOutputStream z = new GZIPOutputStream(b)) {
      z.write(text.getBytes(StandardCharsets.UTF_8));
    }
    return b.toByteArray();
  }

  @Test
  void aTruncatedGzipMappingIsMalformedAfterOneDownload() throws Exception {
    StringBuilder mapping = new StringBuilder();
    for (int i = 0; i < 2000; i++) {
      mapping.append("com.example.C").append(i).append(" -> a").append(i).append(":\n");
    }
    byte[] gz = gzip(mapping.toString());
    byte[] truncated = Arrays.copyOf(gz, gz.length / 2);
    ModuleState s =
        fetcher(() -> new ByteArrayInputStream(truncated), TestEngines.converters())
            .load(JVM, sink, null)
            .state();
    assertThat(s.getStatus()).isEqualTo(TableStatus.malformed);
    assertThat(s.getMessage()).contains("truncated or corrupt");
    assertThat(fetches).hasValue(1);
  }

  @Test
  void aConverterThatFailsUnexpectedlyMakesTheFileMalformedNotARetryLoop() throws Exception {
    TableConverter broken =
        converter(
            TableKind.JVM,
            () -> {
              throw new ArrayIndexOutOfBoundsException("a bug the file found");
            });
    ModuleState s =
        fetcher(() -> new ByteArrayInputStream(new byte[10]), Map.of(TableKind.JVM, broken))
            .load(JVM, sink, null)
            .state();
    assertThat(s.getStatus()).isEqualTo(TableStatus.malformed);
    assertThat(s.getMessage()).contains("the converter failed").contains("a bug the file found");
    assertThat(fetches).hasValue(1);
  }

  @Test
  void aSourceStreamThatFailsUncheckedIsTransient() throws Exception {
    ModuleState s =
        fetcher(
                () ->
                    new InputStream() {
                      @Override
                      public int read() {
                        throw new IllegalStateException("checksum mismatch in transfer");
                      }
                    },
                TestEngines.converters())
            .load(JVM, sink, null)
            .state();
    assertThat(s.getStatus()).isEqualTo(TableStatus.fetch_failed);
    assertThat(s.getMessage()).contains("checksum mismatch");
    assertThat(fetches).as("every attempt").hasValue(3);
  }

  @Test
  void aTableWithAPageTooLargeForOneRecordIsMalformed() throws Exception {
    TableConverter huge =
        converter(
            TableKind.NATIVE,
            () ->
                new CompactTable() {
                  @Override
                  public TableKind kind() {
                    return TableKind.NATIVE;
                  }

                  @Override
                  public int formatVersion() {
                    return 1;
                  }

                  @Override
                  public byte[] header() {
                    return new byte[8];
                  }

                  @Override
                  public List<TablePage> pages() {
                    return List.of(
                        new TablePage(0, new byte[10]),
                        new TablePage(1, new byte[TableSink.MAX_PAGE_BYTES + 1]));
                  }
                });
    ModuleState s =
        fetcher(() -> new ByteArrayInputStream(new byte[10]), Map.of(TableKind.NATIVE, huge))
            .load(NATIVE, sink, null)
            .state();
    assertThat(s.getStatus()).isEqualTo(TableStatus.malformed);
    assertThat(s.getMessage()).contains("a page of " + (TableSink.MAX_PAGE_BYTES + 1) + " bytes");
    assertThat(published).extracting(ModuleState::getStatus).containsExactly(TableStatus.malformed);
  }

  private static ModuleState found(ModuleRef ref, int formatVersion) {
    ModuleState s = state(ref, TableStatus.found, null);
    s.setFormatVersion(formatVersion);
    s.setGeneration(41);
    s.setPageKeys(List.of(0L, 4096L));
    return s;
  }

  /**
   * A transient failure while a found table is being replaced (a rebuild for a new format
   * version, an upload's reload) keeps that table: it was replaced by fetch_failed, so an S3
   * outage during a format change turned every table in use into fetch_failed, one by one.
   */
  @Test
  void aTransientFailureKeepsATableThatStillServes() throws Exception {
    int current = TestEngines.converters().get(TableKind.JVM).formatVersion();
    ModuleState previous = found(JVM, current);
    ModuleFetcher.Outcome o =
        fetcher(
                key -> new FetchResult.Failed("test:" + key, "503 Slow Down"),
                TestEngines.converters())
            .load(JVM, sink, previous);
    assertThat(o.keptPrevious()).isTrue();
    assertThat(o.state()).isSameAs(previous);
    assertThat(published).as("nothing written over it").isEmpty();
    assertThat(deleted).isEmpty();
    assertThat(fetches).hasValue(3);
    // a table the engine no longer reads is not worth keeping: the failure is written
    ModuleFetcher.Outcome unreadable =
        fetcher(key -> new FetchResult.Failed("test:" + key, "503"), TestEngines.converters())
            .load(JVM, sink, found(JVM, current + 1));
    assertThat(unreadable.keptPrevious()).isFalse();
    assertThat(unreadable.state().getStatus()).isEqualTo(TableStatus.fetch_failed);
    // nor one a stream asked for as unknown (it lacks it): keeping it would keep nothing
    ModuleFetcher.Outcome lacking =
        fetcher(key -> new FetchResult.Failed("test:" + key, "503"), TestEngines.converters())
            .load(JVM, sink, found(JVM, current), false);
    assertThat(lacking.keptPrevious()).isFalse();
    assertThat(lacking.state().getStatus()).isEqualTo(TableStatus.fetch_failed);
  }

  /** A negative answer that replaces a found table removes that table's pages (nothing else would). */
  @Test
  void aNegativeAnswerReplacingATableDeletesItsPages() throws Exception {
    ModuleFetcher.Outcome o =
        fetcher(key -> new FetchResult.NotFound("test:" + key), TestEngines.converters())
            .load(JVM, sink, found(JVM, 1));
    assertThat(o.state().getStatus()).isEqualTo(TableStatus.missing);
    assertThat(deleted).containsExactly("41:[0, 4096]");
  }
}
