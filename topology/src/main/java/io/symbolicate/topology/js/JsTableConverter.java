package io.symbolicate.topology.js;

import io.symbolicate.symbols.js.JsTable;
import io.symbolicate.symbols.js.JsTableBuilder;
import io.symbolicate.symbols.js.SourceMapException;
import io.symbolicate.symbols.js.SourceMapParser;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.topology.loader.TableConverter;
import java.io.IOException;
import java.io.InputStream;

/** The loader's converter for sourcemaps. */
public final class JsTableConverter implements TableConverter {

  @Override
  public TableKind kind() {
    return TableKind.JS;
  }

  @Override
  public int formatVersion() {
    return JsTable.FORMAT_VERSION;
  }

  @Override
  public CompactTable convert(InputStream in, long maxInputBytes) throws IOException, MalformedSymbolsException {
    try {
      return new JsTableBuilder().build(
          new SourceMapParser(null, SourceMapParser.DEFAULT_MAX_STRING, maxInputBytes).parse(in));
    } catch (SourceMapException e) {
      throw new MalformedSymbolsException(e.getMessage(), e);
    }
  }
}
