package io.symbolicate.topology.nativecode;

import io.symbolicate.symbols.nativecode.NativeFormat;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.SymFormatException;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.topology.loader.TableConverter;
import java.io.IOException;
import java.io.InputStream;

/** The loader's converter for Breakpad symbol files. */
public final class NativeTableConverter implements TableConverter {

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
  public CompactTable convert(InputStream in, long maxInputBytes) throws IOException, MalformedSymbolsException {
    try {
      return NativeSymbols.convert(in, NativeSymbols.Options.defaults().withMaxInputBytes(maxInputBytes));
    } catch (SymFormatException e) {
      throw new MalformedSymbolsException(e.getMessage(), e);
    }
  }
}
