package io.symbolicate.app.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import io.symbolicate.symbols.io.DebugFileInput;
import io.symbolicate.symbols.js.JsContext;
import io.symbolicate.symbols.js.JsFunctionName;
import io.symbolicate.symbols.js.JsHeader;
import io.symbolicate.symbols.js.JsLocation;
import io.symbolicate.symbols.js.JsSymbolizer;
import io.symbolicate.symbols.js.JsTable;
import io.symbolicate.symbols.js.JsTableBuilder;
import io.symbolicate.symbols.js.JsTableFile;
import io.symbolicate.symbols.js.SourceMap;
import io.symbolicate.symbols.js.SourceMapException;
import io.symbolicate.symbols.js.SourceMapParser;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code symbolicator js}: sourcemap lookups and conversion to the compact table. */
@Command(
    name = "js",
    mixinStandardHelpOptions = true,
    description =
        "JavaScript sourcemaps (Source Map v3 / ECMA-426): look up positions, convert maps.",
    subcommands = {JsCommand.Lookup.class, JsCommand.Convert.class, JsCommand.Batch.class})
final class JsCommand implements Runnable {
  @Override
  public void run() {
    throw new UserException("missing subcommand: lookup, convert or batch (see 'js --help')");
  }

  /** Loads a sourcemap (or a table written by 'js convert') into an in-memory symbolizer. */
  static JsSymbolizer load(Path file, String mapUrl, Path minified) {
    try {
      if (JsTableFile.isTableFile(file)) {
        if (minified != null) {
          throw new UserException(
              "--minified applies to a sourcemap; "
                  + file
                  + " is a converted table (pass --minified to 'js convert' instead)");
        }
        return JsSymbolizer.inMemory(JsTableFile.read(file));
      }
      SourceMap map = SourceMapParser.forHeap(mapUrl, DebugFileInput.DEFAULT_MAX_BYTES).parse(file);
      return JsSymbolizer.inMemory(new JsTableBuilder().build(map, readMinified(minified)));
    } catch (NoSuchFileException e) {
      throw new UserException("no such file: " + file);
    } catch (SourceMapException e) {
      throw new UserException(file + ": " + e.getMessage());
    } catch (IOException | IllegalArgumentException e) {
      throw new UserException(file + ": " + e.getMessage(), e);
    }
  }

  static String readMinified(Path minified) {
    if (minified == null) {
      return null;
    }
    try {
      return Files.readString(minified, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new UserException("no such file: " + minified);
    } catch (MalformedInputException e) {
      throw new UserException(minified + ": not UTF-8 text");
    } catch (IOException e) {
      throw new UserException(minified + ": " + e.getMessage(), e);
    }
  }

  @Command(
      name = "lookup",
      mixinStandardHelpOptions = true,
      description = {
        "Map generated positions to original source, line, column and name.",
        "Positions are 0-based LINE:COLUMN (as the spec counts; columns in UTF-16 units).",
        "With --one-based, input and output positions are 1-based (browser stack frames,"
            + " Sentry lineno/colno).",
        "Prints one JSON object per position."
      })
  static final class Lookup implements Runnable {
    @Option(
        names = "--map",
        required = true,
        paramLabel = "FILE",
        description = "sourcemap (.map, optionally gzipped) or a table from 'js convert'")
    Path map;

    @Option(
        names = "--map-url",
        paramLabel = "URL",
        description = "URL of the map (or the minified file): relative sources resolve against it")
    String mapUrl;

    @Option(
        names = "--minified",
        paramLabel = "FILE",
        description =
            "the minified file: infer each frame's enclosing function from it"
                + " (reported as function + name_source)")
    Path minified;

    @Option(
        names = "--one-based",
        description = "positions are 1-based line and column (crash-report frames)")
    boolean oneBased;

    @Option(
        names = "--context",
        description = "add 5 context lines before/after from sourcesContent")
    boolean context;

    @Option(
        names = "--bias",
        paramLabel = "glb|lub",
        defaultValue = "glb",
        description =
            "glb: the segment at or before the column (default, as the spec and"
                + " mozilla/source-map); lub: at or after it")
    String bias;

    @Option(
        names = "--fallback-earlier-lines",
        description =
            "on a line without segments, use the last segment of an earlier line"
                + " (rust-sourcemap's behaviour; off by default)")
    boolean fallback;

    @Parameters(paramLabel = "LINE:COLUMN", arity = "1..*", description = "generated positions")
    List<String> positions;

    @Override
    public void run() {
      JsSymbolizer.Bias b =
          switch (bias.toLowerCase()) {
            case "glb" -> JsSymbolizer.Bias.GREATEST_LOWER_BOUND;
            case "lub" -> JsSymbolizer.Bias.LEAST_UPPER_BOUND;
            default -> throw new UserException("--bias must be glb or lub, not " + bias);
          };
      int[][] pos = new int[positions.size()][];
      for (int i = 0; i < pos.length; i++) {
        pos[i] = parsePosition(positions.get(i), oneBased);
      }
      JsSymbolizer s = load(map, mapUrl, minified);
      JsSymbolizer.Options opts = new JsSymbolizer.Options(b, fallback);
      int base = oneBased ? 1 : 0;
      try {
        JsonGenerator g =
            new JsonFactory()
                .createGenerator(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        g.setPrettyPrinter(new MinimalPrettyPrinter(""));
        for (int[] p : pos) {
          JsLocation loc = s.lookup(p[0], p[1], opts);
          g.writeStartObject();
          g.writeNumberField("line", p[0] + base);
          g.writeNumberField("column", p[1] + base);
          boolean mapped = loc != null && loc.mapped();
          g.writeStringField("source", mapped ? loc.source() : null);
          if (mapped) {
            g.writeNumberField("original_line", loc.line() + base);
            g.writeNumberField("original_column", loc.column() + base);
          } else {
            g.writeNullField("original_line");
            g.writeNullField("original_column");
          }
          g.writeStringField("name", mapped ? loc.name() : null);
          JsFunctionName fn = s.functionName(p[0], p[1], loc);
          g.writeStringField("function", fn.name());
          g.writeStringField("name_source", fn.nameSource());
          if (fn.scopeKind() != null) {
            g.writeStringField("scope_kind", fn.scopeKind().name().toLowerCase());
          }
          if (mapped && loc.ignored()) {
            g.writeBooleanField("ignored", true);
          }
          if (context) {
            JsContext c = mapped ? s.context(loc) : null;
            if (c == null) {
              g.writeNullField("context");
            } else {
              g.writeObjectFieldStart("context");
              g.writeArrayFieldStart("pre_context");
              for (String l : c.preContext()) {
                g.writeString(l);
              }
              g.writeEndArray();
              g.writeStringField("context_line", c.contextLine());
              g.writeArrayFieldStart("post_context");
              for (String l : c.postContext()) {
                g.writeString(l);
              }
              g.writeEndArray();
              g.writeEndObject();
            }
          }
          g.writeEndObject();
          g.writeRaw('\n');
        }
        g.flush();
      } catch (IOException e) {
        throw new UserException("cannot write output: " + e.getMessage(), e);
      }
    }
  }

  static int[] parsePosition(String s, boolean oneBased) {
    int colon = s.indexOf(':');
    try {
      if (colon < 0) {
        throw new NumberFormatException();
      }
      int line = Integer.parseInt(s.substring(0, colon).trim());
      int col = Integer.parseInt(s.substring(colon + 1).trim());
      int min = oneBased ? 1 : 0;
      if (line < min || col < min) {
        throw new UserException(
            "position "
                + s
                + " is out of range ("
                + (oneBased ? "1" : "0")
                + "-based"
                + (oneBased ? "" : "; use --one-based for browser frames")
                + ")");
      }
      return new int[] {line - min, col - min};
    } catch (NumberFormatException e) {
      throw new UserException("bad position '" + s + "': expected LINE:COLUMN, e.g. 0:120");
    }
  }

  @Command(
      name = "convert",
      mixinStandardHelpOptions = true,
      description = "Convert a sourcemap to the compact table file and print statistics.")
  static final class Convert implements Runnable {
    @Parameters(
        index = "0",
        paramLabel = "MAP",
        description = "sourcemap (.map, optionally gzipped)")
    Path map;

    @Parameters(index = "1", paramLabel = "OUT", description = "table file to write")
    Path out;

    @Option(
        names = "--map-url",
        paramLabel = "URL",
        description = "URL of the map, for resolving sources")
    String mapUrl;

    @Option(
        names = "--minified",
        paramLabel = "FILE",
        description = "the minified file: store each position's enclosing function in the table")
    Path minified;

    @Override
    public void run() {
      try {
        long t0 = System.nanoTime();
        SourceMap m = SourceMapParser.forHeap(mapUrl, DebugFileInput.DEFAULT_MAX_BYTES).parse(map);
        long t1 = System.nanoTime();
        JsTable t = new JsTableBuilder().build(m, readMinified(minified));
        long t2 = System.nanoTime();
        JsTableFile.write(t, out);
        JsHeader h = JsHeader.decode(t.header());
        long mapBytes = Files.size(map);
        PrintWriter w =
            new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        w.printf("map:             %s (%,d bytes)%n", map, mapBytes);
        w.printf("segments:        %,d%n", h.segments());
        w.printf(
            "sources:         %,d (%,d with content)%n",
            h.sources(), m.sourcesContent().stream().filter(Objects::nonNull).count());
        w.printf("names:           %,d distinct%n", h.names());
        w.printf("debug id:        %s%n", h.debugId() == null ? "-" : h.debugId());
        w.printf(
            "pages:           %,d mapping + %,d content, header %,d bytes%n",
            h.mappingPages(), h.contentPages(), t.header().length);
        w.printf(
            "table:           %s (%,d bytes, %.1f%% of the map)%n",
            out, t.encodedSize(), 100.0 * t.encodedSize() / mapBytes);
        w.printf(
            "time:            parse %.0f ms, build %.0f ms (cold JVM)%n",
            (t1 - t0) / 1e6, (t2 - t1) / 1e6);
      } catch (NoSuchFileException e) {
        throw new UserException("no such file: " + e.getFile());
      } catch (SourceMapException e) {
        throw new UserException(map + ": " + e.getMessage());
      } catch (IOException e) {
        throw new UserException(e.getMessage(), e);
      }
    }
  }

  @Command(
      name = "batch",
      mixinStandardHelpOptions = true,
      description = {
        "Look up many positions from a TSV file of LINE<TAB>COLUMN (mozilla/source-map"
            + " convention: 1-based line, 0-based column) and write one TSV line per position:"
            + " source, line (1-based), column, name; 'null' when absent."
            + " Used by scripts/js-crosscheck.sh."
      })
  static final class Batch implements Runnable {
    @Option(
        names = "--map",
        required = true,
        paramLabel = "FILE",
        description = "sourcemap or table file")
    Path map;

    @Option(names = "--lookups", required = true, paramLabel = "TSV", description = "positions")
    Path lookups;

    @Option(names = "--out", paramLabel = "FILE", description = "output file (default: stdout)")
    Path out;

    @Override
    public void run() {
      JsSymbolizer s = load(map, null, null);
      try (BufferedReader r = Files.newBufferedReader(lookups);
          Writer w =
              out == null
                  ? new BufferedWriter(
                      new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16)
                  : Files.newBufferedWriter(out)) {
        String line;
        StringBuilder sb = new StringBuilder(128);
        int n = 0;
        while ((line = r.readLine()) != null) {
          n++;
          int tab = line.indexOf('\t');
          if (tab < 0) {
            throw new UserException(lookups + ":" + n + ": expected LINE<TAB>COLUMN");
          }
          int l;
          int c;
          try {
            l = Integer.parseInt(line, 0, tab, 10) - 1;
            c = Integer.parseInt(line, tab + 1, line.length(), 10);
          } catch (NumberFormatException e) {
            throw new UserException(lookups + ":" + n + ": expected LINE<TAB>COLUMN");
          }
          JsLocation loc = s.lookup(l, c);
          sb.setLength(0);
          if (loc == null || !loc.mapped()) {
            sb.append("null\tnull\tnull\tnull");
          } else {
            sb.append(loc.source())
                .append('\t')
                .append(loc.line() + 1)
                .append('\t')
                .append(loc.column())
                .append('\t')
                .append(loc.name());
          }
          sb.append('\n');
          w.append(sb);
        }
      } catch (NoSuchFileException e) {
        throw new UserException("no such file: " + e.getFile());
      } catch (IOException e) {
        throw new UserException(e.getMessage(), e);
      }
    }
  }
}
