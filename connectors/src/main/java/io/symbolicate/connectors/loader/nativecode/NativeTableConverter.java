package io.symbolicate.connectors.loader.nativecode;

import io.symbolicate.connectors.loader.LoadPacer;
import io.symbolicate.connectors.loader.TableConverter;
import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.symbols.id.DebugFileLayout;
import io.symbolicate.symbols.io.DebugFileInput;
import io.symbolicate.symbols.io.Sizes;
import io.symbolicate.symbols.nativecode.NativeFormat;
import io.symbolicate.symbols.nativecode.NativeHeader;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.nativecode.NativeTableBuilder;
import io.symbolicate.symbols.nativecode.SymFormatException;
import io.symbolicate.symbols.nativecode.SyntheticSymFile;
import io.symbolicate.symbols.nativecode.WarmupSymFile;
import io.symbolicate.symbols.sources.SourceBundle;
import io.symbolicate.symbols.sources.SourceBundleException;
import io.symbolicate.symbols.sources.SourcePages;
import io.symbolicate.symbols.symbfile.SymbfileConverter;
import io.symbolicate.symbols.symbfile.SymbfileException;
import io.symbolicate.symbols.symbfile.SymbfileReader;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.table.TablePage;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loader's converter for native symbols: Breakpad symbol files, and Elastic symbfiles (told
 * by their magic), whose return pads come as the fetch's companion ({@link NativeModuleLocator}).
 */
public final class NativeTableConverter implements TableConverter {
  private static final Logger log = LoggerFactory.getLogger(NativeTableConverter.class);

  @Override
  public TableKind kind() {
    return TableKind.NATIVE;
  }

  @Override
  public int formatVersion() {
    return NativeFormat.VERSION;
  }

  @Override
  public int minReadableVersion() {
    return NativeFormat.MIN_READABLE_VERSION;
  }

  @Override
  public CompactTable convert(InputStream in, long maxInputBytes)
      throws IOException, MalformedSymbolsException {
    return convert(in, maxInputBytes, LoadPacer.unpaced());
  }

  /**
   * Rounds of a ~16 MB synthetic file ({@link WarmupSymFile}): enough for the converter's hot
   * methods to reach their final compiled code (measured with JFR's compilation events against
   * the 130 MB ceph-osd file: docs/benchmarks.md).
   */
  static final int WARMUP_ROUNDS = 4;

  static final int WARMUP_FUNCTIONS = 5000;

  /**
   * Then this many conversions of a small file. The page cutter's loop ({@code
   * NativeTableBuilder.finish}) runs once per file, so the large rounds compile it only for
   * on-stack replacement, and C2 compiled it whole (~0.45 s of compile CPU, everything it calls
   * inlined) in the middle of the first real load; C2 compiles a method whole once it has been
   * called some hundreds of times (the tiered policy's minimum invocations). After the large
   * rounds, so it compiles with their branch profile. Every other small file is a plain one
   * ({@link SyntheticSymFile}: no PUBLICs, one short name pattern): the first such file a
   * process converted (the pipeline benchmark's tables) took branches the realistic sample never
   * does, threw the compiled page cutter and page compressor away, and left them to be compiled
   * again in the next load.
   */
  static final int WARMUP_SMALL_ROUNDS = 800;

  static final int WARMUP_SMALL_FUNCTIONS = 4;
  static final int WARMUP_PLAIN_FUNCTIONS = 64;

  @Override
  public long warmUp(LoadPacer pacer) throws IOException, MalformedSymbolsException {
    byte[] sample = WarmupSymFile.generate(WARMUP_FUNCTIONS, 1);
    for (int r = 0; r < WARMUP_ROUNDS; r++) {
      convert(new ByteArrayInputStream(sample), sample.length, pacer);
    }
    byte[][] small = {
      WarmupSymFile.generate(WARMUP_SMALL_FUNCTIONS, 2),
      SyntheticSymFile.sym(0, WARMUP_PLAIN_FUNCTIONS)
    };
    long bytes = (long) sample.length * WARMUP_ROUNDS;
    for (int r = 0; r < WARMUP_SMALL_ROUNDS; r++) {
      byte[] s = small[r % 2];
      convert(new ByteArrayInputStream(s), s.length, pacer);
      bytes += s.length;
    }
    return bytes;
  }

  /** Paces page cutting too: the table is sorted, encoded and compressed after the last read. */
  @Override
  public CompactTable convert(InputStream in, long maxInputBytes, LoadPacer pacer)
      throws IOException, MalformedSymbolsException {
    return convert(in, maxInputBytes, pacer, (byte[]) null);
  }

  /**
   * A symbfile (after gunzip, it starts with {@code symbfile}) converts with its return pads
   * ({@code companion}, a returnpads symbfile, or null); anything else is read as a .sym.
   */
  @Override
  public CompactTable convert(InputStream in, long maxInputBytes, LoadPacer pacer, byte[] companion)
      throws IOException, MalformedSymbolsException {
    BufferedInputStream plain = new BufferedInputStream(DebugFileInput.wrap(in, maxInputBytes));
    plain.mark(SymbfileReader.MAGIC.length);
    byte[] head = plain.readNBytes(SymbfileReader.MAGIC.length);
    plain.reset();
    if (Arrays.equals(head, SymbfileReader.MAGIC)) {
      return convertSymbfile(plain, companion, maxInputBytes, pacer, maxTableBytesForHeap());
    }
    return convert(plain, maxInputBytes, pacer, maxTableBytesForHeap());
  }

  /**
   * As {@link #convert(InputStream, long, LoadPacer, byte[])}, and a debug file (ELF, Mach-O, a
   * dSYM zip: told by its magic) with the executable the locator spooled beside it ({@link
   * FetchResult.Found#companionFile()}), converted by {@link DebugFileConverter}.
   */
  @Override
  public CompactTable convert(
      ModuleRef ref, FetchResult.Found found, InputStream in, long maxInputBytes, LoadPacer pacer)
      throws IOException, MalformedSymbolsException {
    BufferedInputStream plain = new BufferedInputStream(DebugFileInput.wrap(in, maxInputBytes));
    plain.mark(SymbfileReader.MAGIC.length);
    byte[] head = plain.readNBytes(SymbfileReader.MAGIC.length);
    plain.reset();
    if (Arrays.equals(head, SymbfileReader.MAGIC)) {
      return convertSymbfile(
          plain, found.companion(), maxInputBytes, pacer, maxTableBytesForHeap());
    }
    if (!DebugFileConverter.isDebugFile(head) && found.companionFile() == null) {
      return withSources(
          ref,
          (NativeTable) convert(plain, maxInputBytes, pacer, maxTableBytesForHeap()),
          found.companion());
    }
    DebugFileLayout.Query q;
    try {
      q = NativeModuleLocator.query(ref);
    } catch (IllegalArgumentException e) {
      throw new MalformedSymbolsException("module " + ref.key() + ": " + e.getMessage(), e);
    }
    String name = q.debugFile() != null ? q.debugFile() : "debuginfo";
    CompactTable table =
        DebugFileConverter.convert(
            plain,
            found.companionFile(),
            name,
            q.debugId(),
            maxInputBytes,
            pacer,
            maxTableBytesForHeap());
    return table instanceof NativeTable t ? withSources(ref, t, found.companion()) : table;
  }

  /** Sources of all bundles together may take this much of a table (after its own pages). */
  static final long MAX_SOURCE_PAGE_BYTES = 256L << 20;

  /**
   * The table with the sources of the bundle found beside its file ({@code bundle}, or null) as
   * pages after its own ({@link SourcePages}). A bundle that does not read, names another debug
   * id, or a table whose own pages reach the sources' keys converts without them (logged: the
   * symbols are still good).
   */
  static NativeTable withSources(ModuleRef ref, NativeTable table, byte[] bundle) {
    if (bundle == null || !SourceBundle.looksLikeBundle(bundle)) {
      return table;
    }
    List<TablePage> own = table.pages();
    if (!own.isEmpty() && SourcePages.isSourceKey(own.get(own.size() - 1).firstKey())) {
      log.warn("{}: the table's own pages reach the sources' keys; no source context", ref);
      return table;
    }
    SourceBundle b;
    try {
      b = SourceBundle.read(bundle);
    } catch (SourceBundleException e) {
      log.warn("{}: source bundle not read: {}", ref, e.getMessage());
      return table;
    }
    String debugId = table.nativeHeader().debugId();
    if (debugId != null && !debugId.isEmpty() && !b.matchesDebugId(debugId)) {
      log.warn(
          "{}: source bundle names debug id {}, not the module's {}; left out",
          ref,
          b.debugId(),
          debugId);
      return table;
    }
    List<String> skipped = new ArrayList<>(b.skipped());
    long budget = Math.min(MAX_SOURCE_PAGE_BYTES, maxTableBytesForHeap() - table.encodedSize());
    List<TablePage> sources = SourcePages.pages(b.files(), Math.max(0, budget), skipped);
    if (!skipped.isEmpty()) {
      log.info(
          "{}: source bundle: {} files, {} skipped (first: {})",
          ref,
          b.files().size(),
          skipped.size(),
          skipped.get(0));
    }
    if (sources.isEmpty()) {
      return table;
    }
    return table.withSources(sources);
  }

  /** A ranges symbfile and its return pads (or null) into one table; a bad file is malformed. */
  CompactTable convertSymbfile(
      InputStream ranges,
      byte[] returnPads,
      long maxInputBytes,
      LoadPacer pacer,
      long maxTableBytes)
      throws IOException, MalformedSymbolsException {
    List<TablePage> pages = new ArrayList<>();
    NativeSymbols.Options options =
        NativeSymbols.Options.defaults().withMaxInputBytes(maxInputBytes);
    try (SymbfileConverter c =
        new SymbfileConverter(new SymbfileConverter.Module("", "", null), options)) {
      String part = "ranges";
      try {
        c.add(ranges);
        if (returnPads != null) {
          part = "return pads";
          c.add(new ByteArrayInputStream(returnPads));
        }
      } catch (SymbfileException e) {
        throw new MalformedSymbolsException("symbfile (" + part + "): " + e.getMessage(), e);
      }
      NativeHeader header = c.finish(pageSink(pages, maxTableBytes, pacer));
      return new NativeTable(header, pages);
    } catch (SymFormatException e) {
      throw new MalformedSymbolsException(e.getMessage(), e);
    }
  }

  /** Keeps the pages, failing past {@code maxTableBytes}, pacing between them. */
  static NativeTableBuilder.PageSink pageSink(
      List<TablePage> pages, long maxTableBytes, LoadPacer pacer) {
    long[] held = {0};
    return page -> {
      held[0] += page.bytes().length;
      if (held[0] > maxTableBytes) {
        throw new SymFormatException(
            "the converted table takes more than "
                + Sizes.of(maxTableBytes)
                + ", a quarter of the max heap ("
                + Sizes.of(Runtime.getRuntime().maxMemory())
                + "; raise -Xmx to load this file)");
      }
      pages.add(page);
      try {
        pacer.pace();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("load interrupted");
      }
    };
  }

  /** The pages of one table may take a quarter of the max heap. */
  static long maxTableBytesForHeap() {
    return Runtime.getRuntime().maxMemory() / 4;
  }

  /**
   * {@code maxTableBytes}: the pages are held on the heap until the table is published, so at most
   * a quarter of it (the share of the in-heap parsers of mappings and sourcemaps). A .sym streams
   * in up to symbols.max.file.bytes (4 GB), and a table past the heap ran it out under every
   * thread, then was downloaded and converted again at every retry.
   */
  CompactTable convert(InputStream in, long maxInputBytes, LoadPacer pacer, long maxTableBytes)
      throws IOException, MalformedSymbolsException {
    List<TablePage> pages = new ArrayList<>();
    try {
      NativeHeader header =
          NativeSymbols.convert(
              in,
              NativeSymbols.Options.defaults().withMaxInputBytes(maxInputBytes),
              pageSink(pages, maxTableBytes, pacer));
      return new NativeTable(header, pages);
    } catch (SymFormatException e) {
      throw new MalformedSymbolsException(e.getMessage(), e);
    }
  }
}
