package io.symbolicate.connectors.loader.js;

import io.symbolicate.connectors.loader.LoadPacer;
import io.symbolicate.connectors.loader.TableConverter;
import io.symbolicate.symbols.js.JsTable;
import io.symbolicate.symbols.js.JsTableBuilder;
import io.symbolicate.symbols.js.SourceMap;
import io.symbolicate.symbols.js.SourceMapException;
import io.symbolicate.symbols.js.SourceMapParser;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.TableKind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loader's converter for sourcemaps. With the minified file the locator found beside the map
 * (its companion), the table also holds the minified file's function scopes, so frames are named
 * by their enclosing function as Sentry does (docs/js.md, "Function names").
 */
public final class JsTableConverter implements TableConverter {
  private static final Logger log = LoggerFactory.getLogger(JsTableConverter.class);

  @Override
  public TableKind kind() {
    return TableKind.JS;
  }

  @Override
  public int formatVersion() {
    return JsTable.FORMAT_VERSION;
  }

  @Override
  public CompactTable convert(InputStream in, long maxInputBytes)
      throws IOException, MalformedSymbolsException {
    return convert(in, maxInputBytes, null, null);
  }

  @Override
  public CompactTable convert(InputStream in, long maxInputBytes, LoadPacer pacer, byte[] minified)
      throws IOException, MalformedSymbolsException {
    SourceMap map;
    try {
      // parsed in memory: bounded by the heap too, not only by the configured cap
      map = SourceMapParser.forHeap(null, maxInputBytes).parse(in);
    } catch (SourceMapException e) {
      throw new MalformedSymbolsException(e.getMessage(), e);
    }
    if (minified != null) {
      try {
        return new JsTableBuilder().build(map, new String(minified, StandardCharsets.UTF_8));
      } catch (RuntimeException e) {
        // the minified file only adds scope names: a file the scope finder cannot read costs them,
        // not the map
        log.warn(
            "function scopes of the minified file could not be read ({}); the table has the map's names only",
            e.toString());
      }
    }
    return new JsTableBuilder().build(map);
  }
}
