package io.symbolicate.connectors.loader;

import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.io.IOException;
import java.io.InputStream;

/** Converts one platform's debug file into a compact table (the engines, behind one interface). */
public interface TableConverter {

  TableKind kind();

  /** Format version of the tables this converter writes. */
  int formatVersion();

  /** Oldest table format version the engine's reader still reads (older counts as absent). */
  default int minReadableVersion() {
    return formatVersion();
  }

  /**
   * Converts the (possibly gzipped) input; throws {@link MalformedSymbolsException} when the file
   * is not usable, {@link IOException} for read errors (transient).
   */
  CompactTable convert(InputStream in, long maxInputBytes)
      throws IOException, MalformedSymbolsException;

  /**
   * As {@link #convert(InputStream, long)}, giving {@code pacer} a chance to sleep between pieces
   * of work that do not read input (the loader already paces the input's reads).
   */
  default CompactTable convert(InputStream in, long maxInputBytes, LoadPacer pacer)
      throws IOException, MalformedSymbolsException {
    return convert(in, maxInputBytes);
  }

  /**
   * As {@link #convert(InputStream, long, LoadPacer)} with the companion file the locator found
   * beside the input ({@link io.symbolicate.connectors.source.FetchResult.Found#companion()}), or
   * null; converters that have no use for one ignore it.
   */
  default CompactTable convert(
      InputStream in, long maxInputBytes, LoadPacer pacer, byte[] companion)
      throws IOException, MalformedSymbolsException {
    return convert(in, maxInputBytes, pacer);
  }

  /**
   * As {@link #convert(InputStream, long, LoadPacer, byte[])} for the module {@code ref}, whose
   * fetch {@code found} gave {@code in} (its body, paced): a converter that needs the module's
   * identity or the fetch's companion file overrides this.
   */
  default CompactTable convert(
      ModuleRef ref, FetchResult.Found found, InputStream in, long maxInputBytes, LoadPacer pacer)
      throws IOException, MalformedSymbolsException {
    return convert(in, maxInputBytes, pacer, found.companion());
  }

  /**
   * Converts a synthetic file shaped like real ones, so the JIT compiles this converter before
   * the first real file; returns the input bytes converted (0: this converter has no warm-up).
   * Called once per JVM by {@link ConverterWarmup}, paced like a load.
   */
  default long warmUp(LoadPacer pacer) throws IOException, MalformedSymbolsException {
    return 0;
  }

  /** The debug file is unusable; cached as malformed. */
  final class MalformedSymbolsException extends Exception {
    public MalformedSymbolsException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
