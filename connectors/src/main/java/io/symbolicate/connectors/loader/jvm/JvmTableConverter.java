package io.symbolicate.connectors.loader.jvm;

import io.symbolicate.connectors.loader.LoadPacer;
import io.symbolicate.connectors.loader.SourceBundleFetch;
import io.symbolicate.connectors.loader.TableConverter;
import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.symbols.io.DebugFileInput;
import io.symbolicate.symbols.jvm.JvmSourceBundle;
import io.symbolicate.symbols.jvm.JvmTable;
import io.symbolicate.symbols.jvm.JvmTableBuilder;
import io.symbolicate.symbols.jvm.MappingException;
import io.symbolicate.symbols.jvm.MappingLocator;
import io.symbolicate.symbols.jvm.MappingParser;
import io.symbolicate.symbols.sources.SourceBundle;
import io.symbolicate.symbols.sources.SourceBundleException;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loader's converter for ProGuard/R8 mapping files, and for JVM source bundles (modules
 * named {@code source/<uuid>}: a table of source pages only; docs/jvm.md, "Source context").
 */
public final class JvmTableConverter implements TableConverter {
  private static final Logger log = LoggerFactory.getLogger(JvmTableConverter.class);

  /** The sources of one bundle take at most this much of its table. */
  static final long MAX_SOURCE_PAGE_BYTES = 256L << 20;

  @Override
  public TableKind kind() {
    return TableKind.JVM;
  }

  @Override
  public int formatVersion() {
    return JvmTable.FORMAT_VERSION;
  }

  @Override
  public CompactTable convert(InputStream in, long maxInputBytes)
      throws IOException, MalformedSymbolsException {
    byte[] mapping;
    // the whole mapping is parsed in memory: bounded by the heap too, not only by the configured
    // cap
    try (InputStream body = DebugFileInput.wrapInHeap(in, maxInputBytes, "ProGuard mapping")) {
      mapping = body.readAllBytes();
    }
    try {
      return JvmTableBuilder.build(MappingParser.parse(mapping));
    } catch (MappingException e) {
      throw new MalformedSymbolsException(e.getMessage(), e);
    }
  }

  @Override
  public CompactTable convert(
      ModuleRef ref, FetchResult.Found found, InputStream in, long maxInputBytes, LoadPacer pacer)
      throws IOException, MalformedSymbolsException {
    if (!JvmSourceBundle.isModuleKey(ref.key())) {
      return convert(in, maxInputBytes, pacer);
    }
    return sourceBundle(JvmSourceBundle.uuidOf(ref.key()), in, maxInputBytes);
  }

  /**
   * The table of the source bundle with debug id {@code uuid}: one that does not read, or whose
   * manifest names another debug id, is malformed; files it cannot use are left out (logged).
   */
  static JvmTable sourceBundle(String uuid, InputStream in, long maxInputBytes)
      throws IOException, MalformedSymbolsException {
    int cap = (int) Math.min(maxInputBytes, SourceBundleFetch.cap());
    byte[] bytes;
    try (InputStream body = in) {
      bytes = body.readNBytes(cap + 1);
    }
    if (bytes.length > cap) {
      throw new MalformedSymbolsException("source bundle larger than " + cap + " bytes", null);
    }
    SourceBundle b;
    try {
      b = SourceBundle.read(bytes);
    } catch (SourceBundleException e) {
      throw new MalformedSymbolsException("source bundle: " + e.getMessage(), e);
    }
    if (b.debugId() != null && !b.debugId().isBlank() && !sameUuid(b.debugId(), uuid)) {
      throw new MalformedSymbolsException(
          "the source bundle's manifest names debug id " + b.debugId() + ", not " + uuid, null);
    }
    List<String> skipped = new ArrayList<>();
    JvmTable t = JvmSourceBundle.table(b, MAX_SOURCE_PAGE_BYTES, skipped);
    if (!skipped.isEmpty()) {
      log.info(
          "JVM source bundle {}: {} files, {} skipped (first: {})",
          uuid,
          b.files().size(),
          skipped.size(),
          skipped.get(0));
    }
    return t;
  }

  private static boolean sameUuid(String manifestId, String uuid) {
    try {
      return MappingLocator.normaliseUuid(manifestId).equals(uuid);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
