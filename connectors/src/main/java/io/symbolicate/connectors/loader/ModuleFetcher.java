package io.symbolicate.connectors.loader;

import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.symbols.io.DebugFileInput;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loader's core, independent of where tables go: find a module's debug file in the sources
 * (retrying transient failures with backoff), convert it with the platform engine, and write the
 * answer to a {@link TableSink} with the caching rules' retry times (missing, malformed, failed).
 */
public final class ModuleFetcher {
  private static final Logger log = LoggerFactory.getLogger(ModuleFetcher.class);

  /**
   * What one load did: the state written (or, {@code keptPrevious}, the found state it was to
   * replace and kept, writing nothing) and what was downloaded for it.
   */
  public record Outcome(
      ModuleState state, long downloadedBytes, long millis, boolean keptPrevious) {}

  private final SourceChain sources;
  private final Map<TableKind, TableConverter> converters;
  private final Map<TableKind, ModuleLocator> locators;
  private final LoaderSettings settings;
  private final SymbolLoader.Stats stats;

  public ModuleFetcher(
      SourceChain sources,
      Map<TableKind, TableConverter> converters,
      Map<TableKind, ModuleLocator> locators,
      LoaderSettings settings,
      SymbolLoader.Stats stats) {
    this.sources = sources;
    this.converters = Map.copyOf(converters);
    this.locators = Map.copyOf(locators);
    this.settings = settings;
    this.stats = stats;
  }

  /** The counters this fetcher updates (the loader's, or its own in {@code serve}). */
  public SymbolLoader.Stats stats() {
    return stats;
  }

  public LoaderSettings settings() {
    return settings;
  }

  public TableConverter converter(TableKind kind) {
    return converters.get(kind);
  }

  /** Candidate keys of a module; throws for identifiers that must not become keys. */
  public List<String> keys(ModuleRef ref) {
    ModuleLocator l = locators.get(ref.kind());
    if (l == null) {
      throw new IllegalArgumentException("no symbol layout for " + ref.kind());
    }
    return l.keys(ref);
  }

  /** The module's file through its locator (the layout; a JS release reads its minified file first). */
  private FetchResult fetch(ModuleRef ref) {
    ModuleLocator l = locators.get(ref.kind());
    if (l == null) {
      throw new IllegalArgumentException("no symbol layout for " + ref.kind());
    }
    return l.fetch(ref, sources);
  }

  /**
   * Loads one module and writes the answer to the sink; the pages of {@code previous} (a found
   * state being replaced) are deleted once the new table is written.
   */
  public Outcome load(ModuleRef ref, TableSink sink, ModuleState previous) throws Exception {
    return load(ref, sink, previous, true);
  }

  /**
   * As {@link #load(ModuleRef, TableSink, ModuleState)}; {@code keepOnFailure} false when the
   * found {@code previous} is known not to serve any more (a stream asked for it as unknown): a
   * transient failure then writes fetch_failed instead of keeping a table nobody has.
   */
  public Outcome load(ModuleRef ref, TableSink sink, ModuleState previous, boolean keepOnFailure)
      throws Exception {
    // tracked for the status page: what runs now, and how long the finished loads took
    long id =
        stats.loadStarted(
            ref.key()
                + " ("
                + ref.kind().name().toLowerCase(Locale.ROOT)
                + ", "
                + ref.scope()
                + ")",
            System.currentTimeMillis());
    try {
      return loadTracked(ref, sink, previous, keepOnFailure);
    } finally {
      stats.loadFinished(id, System.currentTimeMillis());
    }
  }

  private Outcome loadTracked(
      ModuleRef ref, TableSink sink, ModuleState previous, boolean keepOnFailure) throws Exception {
    ModuleState keepable = keepOnFailure ? previous : null;
    long started = System.currentTimeMillis();
    TableConverter conv = converters.get(ref.kind());
    keys(ref); // validates the identifiers before anything is fetched
    String lastFailure = null;
    AtomicLong bytes = new AtomicLong();
    for (int attempt = 1; attempt <= settings.attempts(); attempt++) {
      if (attempt > 1) {
        stats.retries.incrementAndGet();
        Thread.sleep(settings.backoff().toMillis() << Math.min(attempt - 2, 10));
      }
      FetchResult r = fetch(ref);
      long now = System.currentTimeMillis();
      if (r instanceof FetchResult.NotFound nf) {
        stats.missing.incrementAndGet();
        return replaced(
            sink,
            ref,
            previous,
            sink.publishNegative(
                ref,
                TableStatus.missing,
                0,
                "not found in any source",
                nf.tried(),
                now,
                now + settings.missingRetry().toMillis()),
            bytes,
            started);
      }
      if (r instanceof FetchResult.Failed f) {
        lastFailure = f.location() + ": " + f.reason();
        log.warn(
            "fetching {} failed (attempt {}/{}): {}",
            ref,
            attempt,
            settings.attempts(),
            lastFailure);
        continue;
      }
      FetchResult.Found found = (FetchResult.Found) r;
      stats.downloads.incrementAndGet();
      if (conv == null) {
        found.close();
        return replaced(
            sink,
            ref,
            previous,
            sink.publishNegative(
                ref,
                TableStatus.malformed,
                0,
                "no engine for " + ref.kind() + " in this version",
                found.location(),
                now,
                now + settings.malformedRetry().toMillis()),
            bytes,
            started);
      }
      CompactTable table;
      bytes.set(0);
      // one pacer for the whole load on this thread: reads, page cuts and page sends share the
      // budget
      LoadPacer pacer = settings.cpuBudget().pacerForCurrentThread();
      CountingInput source = new CountingInput(found.body(), stats.downloadedBytes, bytes);
      try {
        try (found;
            InputStream in = new PacedInput(source, pacer)) {
          table = conv.convert(ref, found, in, settings.maxInputBytes(), pacer);
          String unfit = unfitPage(table);
          if (unfit != null) {
            throw new TableConverter.MalformedSymbolsException(unfit, null);
          }
        } catch (TableConverter.MalformedSymbolsException
            | DebugFileInput.TooLargeException
            | DebugFileInput.CorruptInputException e) {
          return malformed(
              sink, ref, previous, conv, e.getMessage(), found.location(), now, bytes, started);
        } catch (OutOfMemoryError e) {
          // what the conversion held is garbage once the error unwound it. Not the file's fault
          // (in-heap parsers are capped at a quarter of the heap), but of loads at once in too
          // small a heap: a failure of this instance, retried like a broken download, said aloud
          // (on a worker thread the error would otherwise vanish in its Future, and every event
          // would ask for the module again)
          stats.failed.incrementAndGet();
          long heapMb = Runtime.getRuntime().maxMemory() >> 20;
          log.error(
              "converting {} from {} ran out of heap (max heap {} MB; loader.concurrency loads at once)",
              ref,
              found.location(),
              heapMb);
          if (servesStill(keepable, conv)) {
            return kept(ref, previous, bytes, started);
          }
          return outcome(
              sink.publishNegative(
                  ref,
                  TableStatus.fetch_failed,
                  0,
                  "ran out of heap converting "
                      + found.location()
                      + " (max heap "
                      + heapMb
                      + " MB): raise -Xmx or lower loader.concurrency",
                  null,
                  now,
                  now + settings.failedRetry().toMillis()),
              bytes,
              started);
        } catch (IOException | RuntimeException e) {
          if (e instanceof RuntimeException && !source.failed) {
            // the converter failed on this file in a way nobody foresaw: cached as malformed
            // (retried after malformed.retry, a restart or a new format version), not fetched again
            log.warn(
                "converting {} from {} failed unexpectedly; caching it as malformed",
                ref,
                found.location(),
                e);
            return malformed(
                sink,
                ref,
                previous,
                conv,
                "the converter failed: " + e,
                found.location(),
                now,
                bytes,
                started);
          }
          // the connection broke while reading, or the source's stream failed otherwise: transient
          lastFailure = found.location() + ": " + e;
          log.warn(
              "reading {} failed (attempt {}/{}): {}",
              ref,
              attempt,
              settings.attempts(),
              e.toString());
          continue;
        }
        long converted = System.currentTimeMillis();
        ModuleState state = sink.publishFound(ref, table, found.location(), converted, pacer);
        stats.found.incrementAndGet();
        if (previous != null
            && previous.getStatus() == TableStatus.found
            && previous.getGeneration() != state.getGeneration()) {
          sink.deletePages(ref, previous.getGeneration(), previous.getPageKeys());
        }
        long done = System.currentTimeMillis();
        log.info(
            "loaded {} from {}: {} pages, {} bytes in {} ms (fetch+convert {} ms, publish {} ms; "
                + "{} ms of CPU, {} ms paused: {} of a core)",
            ref,
            found.location(),
            table.pages().size(),
            table.encodedSize(),
            done - started,
            converted - started,
            done - converted,
            pacer.finish().workMillis(),
            pacer.sleptMillis(),
            pacer.effectiveShareText());
        return outcome(state, bytes, started);
      } finally {
        stats.paced(pacer.finish());
      }
    }
    stats.failed.incrementAndGet();
    if (servesStill(keepable, conv)) {
      return kept(ref, previous, bytes, started);
    }
    long now = System.currentTimeMillis();
    // never cached as missing: a short retry-after, and waiting events keep waiting until their
    // deadline
    return outcome(
        sink.publishNegative(
            ref,
            TableStatus.fetch_failed,
            0,
            lastFailure,
            null,
            now,
            now + settings.failedRetry().toMillis()),
        bytes,
        started);
  }

  /**
   * Why a converted table cannot be published (a page too large for one record of
   * {@code symbols.tables}), or null.
   */
  static String unfitPage(CompactTable table) {
    if (table.header().length > TableSink.MAX_PAGE_BYTES) {
      return "the table's header of "
          + table.header().length
          + " bytes exceeds the "
          + TableSink.MAX_PAGE_BYTES
          + " bytes a record of the symbol tables may hold";
    }
    for (var page : table.pages()) {
      if (page.bytes().length > TableSink.MAX_PAGE_BYTES) {
        return "a page of "
            + page.bytes().length
            + " bytes (one entry too large to split) exceeds the "
            + TableSink.MAX_PAGE_BYTES
            + " bytes a record of the symbol tables may hold";
      }
    }
    return null;
  }

  private static Outcome outcome(ModuleState s, AtomicLong bytes, long started) {
    return new Outcome(s, bytes.get(), System.currentTimeMillis() - started, false);
  }

  /**
   * A transient failure does not take a working table away: a found table this engine still
   * reads is kept (served while a rebuild or an upload's reload is tried again later).
   */
  private static boolean servesStill(ModuleState previous, TableConverter conv) {
    return previous != null
        && previous.getStatus() == TableStatus.found
        && conv != null
        && previous.getFormatVersion() >= conv.minReadableVersion()
        && previous.getFormatVersion() <= conv.formatVersion();
  }

  private static Outcome kept(ModuleRef ref, ModuleState previous, AtomicLong bytes, long started) {
    log.warn(
        "reloading {} failed for now; its table of format version {} stays in use",
        ref,
        previous.getFormatVersion());
    return new Outcome(previous, bytes.get(), System.currentTimeMillis() - started, true);
  }

  /** The file cannot be used by this engine: cached as malformed (with the converter's format version). */
  private Outcome malformed(
      TableSink sink,
      ModuleRef ref,
      ModuleState previous,
      TableConverter conv,
      String message,
      String location,
      long now,
      AtomicLong bytes,
      long started)
      throws Exception {
    stats.malformed.incrementAndGet();
    return replaced(
        sink,
        ref,
        previous,
        sink.publishNegative(
            ref,
            TableStatus.malformed,
            conv.formatVersion(),
            message,
            location,
            now,
            now + settings.malformedRetry().toMillis()),
        bytes,
        started);
  }

  /** A negative answer replacing a found table: that table's pages go too (nothing else would remove them). */
  private static Outcome replaced(
      TableSink sink,
      ModuleRef ref,
      ModuleState previous,
      ModuleState negative,
      AtomicLong bytes,
      long started)
      throws Exception {
    if (previous != null && previous.getStatus() == TableStatus.found) {
      sink.deletePages(ref, previous.getGeneration(), previous.getPageKeys());
    }
    return outcome(negative, bytes, started);
  }

  /** Counts bytes read, for the downloads metric and the API's debug block. */
  private static final class CountingInput extends FilterInputStream {
    private final AtomicLong total;
    private final AtomicLong mine;
    private boolean failed; // the source's own stream threw: its failures are transient

    CountingInput(InputStream in, AtomicLong total, AtomicLong mine) {
      super(in);
      this.total = total;
      this.mine = mine;
    }

    @Override
    public int read() throws IOException {
      int b;
      try {
        b = super.read();
      } catch (IOException | RuntimeException e) {
        failed = true;
        throw e;
      }
      if (b >= 0) {
        total.incrementAndGet();
        mine.incrementAndGet();
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n;
      try {
        n = super.read(b, off, len);
      } catch (IOException | RuntimeException e) {
        failed = true;
        throw e;
      }
      if (n > 0) {
        total.addAndGet(n);
        mine.addAndGet(n);
      }
      return n;
    }
  }
}
