package io.symbolicate.connectors.loader.jvm;

import io.symbolicate.connectors.loader.TableConverter;
import io.symbolicate.symbols.io.DebugFileInput;
import io.symbolicate.symbols.jvm.JvmTable;
import io.symbolicate.symbols.jvm.JvmTableBuilder;
import io.symbolicate.symbols.jvm.MappingException;
import io.symbolicate.symbols.jvm.MappingParser;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.TableKind;
import java.io.IOException;
import java.io.InputStream;

/** The loader's converter for ProGuard/R8 mapping files. */
public final class JvmTableConverter implements TableConverter {

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
}
