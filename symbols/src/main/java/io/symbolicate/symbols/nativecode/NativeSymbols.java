package io.symbolicate.symbols.nativecode;

import io.symbolicate.symbols.io.DebugFileInput;
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
  public record Options(
      long maxInputBytes, int maxLineBytes, int pageTargetBytes, PageCompression codec) {
    public static Options defaults() {
      return new Options(
          DebugFileInput.DEFAULT_MAX_BYTES,
          SymParser.DEFAULT_MAX_LINE,
          NativeTableBuilder.DEFAULT_PAGE_TARGET,
          NativeTableBuilder.DEFAULT_CODEC);
    }

    public Options withMaxInputBytes(long max) {
      return new Options(max, maxLineBytes, pageTargetBytes, codec);
    }

    public Options withPageTargetBytes(int target) {
      return new Options(maxInputBytes, maxLineBytes, target, codec);
    }

    public Options withMaxLineBytes(int max) {
      return new Options(maxInputBytes, max, pageTargetBytes, codec);
    }

    public Options withCodec(PageCompression c) {
      return new Options(maxInputBytes, maxLineBytes, pageTargetBytes, c);
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
  public static NativeHeader convert(
      InputStream raw, Options options, NativeTableBuilder.PageSink sink) throws IOException {
    return convert(
        raw, options, sink, new NativeTableBuilder(options.pageTargetBytes(), options.codec()));
  }

  /** As above with a given builder, which is closed at the end (tests: one whose stores run out). */
  static NativeHeader convert(
      InputStream raw,
      Options options,
      NativeTableBuilder.PageSink sink,
      NativeTableBuilder builder)
      throws IOException {
    try (builder) {
      InputStream in = DebugFileInput.wrap(raw, options.maxInputBytes());
      SymParser parser = new SymParser(builder, options.maxLineBytes());
      parser.parse(in);
      return builder.finish(sink, parser.bytesRead());
    } catch (ChunkedBytes.OutOfDirectMemory e) {
      throw e.getCause(); // the instance's limit, not the file's fault: an I/O failure to retry
    } catch (NativeTableBuilder.IndexTooLargeException e) {
      throw new SymFormatException(e.getMessage(), e);
    }
  }
}
