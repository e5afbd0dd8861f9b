package io.symbolicate.symbols.nativecode;

import io.symbolicate.symbols.io.BoundedInput;
import io.symbolicate.symbols.table.TablePage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Entry points: convert a Breakpad .sym (plain or gzip) into a {@link NativeTable}. */
public final class NativeSymbols {
  private NativeSymbols() {}

  /** Options for conversion; the defaults suit real symbol files. */
  public record Options(long maxInputBytes, int maxLineBytes, int pageTargetBytes,
      int compressionLevel) {
    public static Options defaults() {
      return new Options(BoundedInput.DEFAULT_MAX_BYTES, SymParser.DEFAULT_MAX_LINE,
          NativeTableBuilder.DEFAULT_PAGE_TARGET, NativeTableBuilder.DEFAULT_COMPRESSION);
    }

    public Options withMaxInputBytes(long max) {
      return new Options(max, maxLineBytes, pageTargetBytes, compressionLevel);
    }

    public Options withPageTargetBytes(int target) {
      return new Options(maxInputBytes, maxLineBytes, target, compressionLevel);
    }

    public Options withMaxLineBytes(int max) {
      return new Options(maxInputBytes, max, pageTargetBytes, compressionLevel);
    }

    /** 0 stores pages uncompressed; 1-9 deflate them (1 is the default: fastest). */
    public Options withCompressionLevel(int level) {
      return new Options(maxInputBytes, maxLineBytes, pageTargetBytes, level);
    }
  }

  public static NativeTable convert(Path sym) throws IOException {
    return convert(sym, Options.defaults());
  }

  public static NativeTable convert(Path sym, Options options) throws IOException {
    try (InputStream in = Files.newInputStream(sym)) {
      return convert(in, options);
    }
  }

  /** Reads a raw stream (gunzipped by magic bytes, capped by {@code options}). */
  public static NativeTable convert(InputStream raw, Options options) throws IOException {
    List<TablePage> pages = new ArrayList<>();
    NativeHeader header = convert(raw, options, pages::add);
    return new NativeTable(header, pages);
  }

  /** Streams pages to {@code sink} as they are cut and returns the header at the end. */
  public static NativeHeader convert(InputStream raw, Options options,
      NativeTableBuilder.PageSink sink) throws IOException {
    InputStream in = BoundedInput.wrap(raw, options.maxInputBytes());
    NativeTableBuilder builder = new NativeTableBuilder(options.pageTargetBytes(), options.compressionLevel());
    SymParser parser = new SymParser(builder, options.maxLineBytes());
    parser.parse(in);
    return builder.finish(sink, parser.bytesRead());
  }
}
