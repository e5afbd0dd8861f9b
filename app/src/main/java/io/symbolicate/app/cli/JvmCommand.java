package io.symbolicate.app.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.symbolicate.symbols.io.DebugFileInput;
import io.symbolicate.symbols.jvm.FrameResult;
import io.symbolicate.symbols.jvm.JvmHeader;
import io.symbolicate.symbols.jvm.JvmSourceBundle;
import io.symbolicate.symbols.jvm.JvmSourcePath;
import io.symbolicate.symbols.jvm.JvmTable;
import io.symbolicate.symbols.jvm.JvmTableBuilder;
import io.symbolicate.symbols.jvm.JvmTableFile;
import io.symbolicate.symbols.jvm.MappingException;
import io.symbolicate.symbols.jvm.MappingParser;
import io.symbolicate.symbols.jvm.ParsedMapping;
import io.symbolicate.symbols.jvm.RetracedFrame;
import io.symbolicate.symbols.jvm.Retracer;
import io.symbolicate.symbols.jvm.TraceRetracer;
import io.symbolicate.symbols.sources.SourceBundle;
import io.symbolicate.symbols.sources.SourceBundleException;
import io.symbolicate.symbols.sources.SourceContext;
import io.symbolicate.symbols.sources.SourcePage;
import io.symbolicate.symbols.sources.SourcePages;
import io.symbolicate.symbols.table.InMemoryPageSource;
import io.symbolicate.symbols.table.PageSource;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code symbolicator jvm}: retrace Java/Kotlin stack traces with ProGuard/R8 mappings. */
@Command(
    name = "jvm",
    mixinStandardHelpOptions = true,
    description = "JVM symbols: retrace stack traces with ProGuard/R8 mapping.txt files.",
    subcommands = {JvmCommand.Retrace.class, JvmCommand.Convert.class})
final class JvmCommand implements Runnable {
  /** Mapping files larger than this (decompressed) are refused. */
  static final long MAX_MAPPING_BYTES = 2L << 30;

  @Override
  public void run() {
    throw new UserException(
        "missing subcommand: use 'jvm retrace' or 'jvm convert' (see 'jvm --help')");
  }

  @Command(
      name = "retrace",
      mixinStandardHelpOptions = true,
      description = {
        "Retrace a text stack trace (stdin by default) and print it with original names.",
        "Output matches R8's retrace tool: alternatives of ambiguous frames are marked <OR>."
      })
  static final class Retrace implements Callable<Integer> {
    @Option(
        names = "--mapping",
        required = true,
        paramLabel = "FILE",
        description = "mapping.txt (plain or gzipped) or a table written by 'jvm convert'")
    Path mapping;

    @Parameters(
        index = "0",
        arity = "0..1",
        paramLabel = "TRACE_FILE",
        description = "stack trace text (default: stdin)")
    Path trace;

    @Option(names = "--json", description = "print one JSON object per input frame instead of text")
    boolean json;

    @Option(
        names = "--threads",
        paramLabel = "N",
        description = "retrace threads (default: cores, at most 4)")
    Integer threads;

    @Option(names = "--timings", description = "print load and retrace times to stderr")
    boolean timings;

    @Option(
        names = "--style",
        paramLabel = "r8|sentry",
        defaultValue = "r8",
        description = "text layout: r8 (default, like R8 retrace) or sentry (like rust-proguard)")
    String style;

    @Option(
        names = "--sources",
        paramLabel = "BUNDLE",
        description =
            "a JVM source bundle (sentry-cli debug-files bundle-jvm); with --json, frames get"
                + " pre_context, context_line and post_context from it (repeatable)")
    List<Path> sources = new ArrayList<>();

    @Option(
        names = "--context-lines",
        paramLabel = "N",
        defaultValue = "5",
        description = "source context lines before and after a frame's line (default 5)")
    int contextLines;

    @Override
    public Integer call() throws IOException {
      if (!sources.isEmpty() && !json) {
        throw new UserException("--sources needs --json: the text layouts have no context lines");
      }
      if (contextLines < 0) {
        throw new UserException("--context-lines must be at least 0");
      }
      List<PageSource<SourcePage>> bundles = new ArrayList<>();
      for (Path b : sources) {
        bundles.add(readBundle(b));
      }
      TraceRetracer.Style st =
          switch (style) {
            case "r8" -> TraceRetracer.Style.R8;
            case "sentry" -> TraceRetracer.Style.SENTRY;
            default -> throw new UserException("--style must be r8 or sentry, not '" + style + "'");
          };
      long t0 = System.nanoTime();
      byte[] data = readMapping(mapping);
      long t1 = System.nanoTime();
      Retracer retracer;
      try {
        // A converted table is decoded; a mapping.txt goes straight to lookup structures (no
        // page encoding round trip for a one-shot run).
        retracer =
            JvmTableFile.looksLikeTable(data)
                ? Retracer.inMemory(JvmTableFile.read(data))
                : JvmTableBuilder.directRetracer(MappingParser.parseParallel(data));
      } catch (MappingException e) {
        throw new UserException(mapping + ": " + e.getMessage());
      }
      long t2 = System.nanoTime();
      String text = new String(readTrace(), StandardCharsets.UTF_8);
      OutputStream out = new BufferedOutputStream(System.out, 1 << 16);
      if (json) {
        writeJson(retracer, st, text, out, new FrameSources(bundles, contextLines));
      } else {
        if (threads != null && threads < 1) {
          throw new UserException("--threads must be at least 1");
        }
        int n =
            threads != null
                ? threads
                : Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
        try {
          TraceRetracer.retraceParallel(
              retracer,
              st,
              text,
              n,
              part -> {
                try {
                  out.write(part.getBytes(StandardCharsets.UTF_8));
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new UserException("interrupted");
        } catch (UncheckedIOException e) {
          throw e.getCause();
        }
      }
      out.flush();
      if (timings) {
        long t3 = System.nanoTime();
        System.err.printf(
            "jvm retrace: read %d ms, parse or decode %d ms, retrace+write %d ms (since JVM start %d ms)%n",
            (t1 - t0) / 1_000_000,
            (t2 - t1) / 1_000_000,
            (t3 - t2) / 1_000_000,
            ManagementFactory.getRuntimeMXBean().getUptime());
      }
      return 0;
    }

    private byte[] readTrace() throws IOException {
      if (trace == null) {
        return System.in.readAllBytes();
      }
      try {
        return Files.readAllBytes(trace);
      } catch (NoSuchFileException e) {
        throw new UserException("trace file not found: " + trace);
      }
    }
  }

  @Command(
      name = "convert",
      mixinStandardHelpOptions = true,
      description = "Convert a mapping.txt into a compact table file and print its statistics.")
  static final class Convert implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "MAPPING", description = "mapping.txt (plain or gzipped)")
    Path mapping;

    @Parameters(index = "1", paramLabel = "OUT", description = "table file to write")
    Path out;

    @Override
    public Integer call() throws IOException {
      byte[] data = readMapping(mapping);
      long t0 = System.nanoTime();
      ParsedMapping parsed;
      JvmTable table;
      try {
        parsed = MappingParser.parse(data);
        table = JvmTableBuilder.build(parsed);
      } catch (MappingException e) {
        throw new UserException(mapping + ": " + e.getMessage());
      }
      long t1 = System.nanoTime();
      byte[] bytes = JvmTableFile.toBytes(table);
      Files.write(out, bytes);
      JvmHeader h = table.parsedHeader();
      int maxPage = 0;
      for (var p : table.pages()) {
        maxPage = Math.max(maxPage, p.bytes().length);
      }
      PrintStream o = System.out;
      o.printf("mapping      %s (%,d bytes, %,d lines)%n", mapping, data.length, parsed.lineCount);
      o.printf(
          "compiler     %s%s%s%n",
          h.compiler() == null ? "unknown" : h.compiler(),
          h.compilerVersion() == null ? "" : " " + h.compilerVersion(),
          h.mapId() == null ? "" : ", map id " + h.mapId());
      o.printf("classes      %,d (%,d mapped twice)%n", h.classCount(), h.duplicateClasses());
      o.printf("methods      %,d lines, fields %,d%n", h.methodLineCount(), parsed.fieldCount);
      o.printf(
          "malformed    %,d lines skipped%s%n",
          parsed.malformedLines,
          parsed.malformedLines == 0
              ? ""
              : " (first at line "
                  + parsed.firstMalformedLine
                  + ": "
                  + parsed.firstMalformedReason
                  + ")");
      o.printf(
          "table        %s: %,d bytes (%.1f%% of the mapping), header %,d bytes, %,d pages (largest %,d bytes)%n",
          out,
          bytes.length,
          100.0 * bytes.length / Math.max(1, data.length),
          table.header().length,
          table.pages().size(),
          maxPage);
      o.printf("time         %.0f ms parse + build%n", (t1 - t0) / 1e6);
      return 0;
    }
  }

  static byte[] readMapping(Path file) throws IOException {
    try (InputStream raw = Files.newInputStream(file);
        InputStream in = DebugFileInput.wrapInHeap(raw, MAX_MAPPING_BYTES, "ProGuard mapping")) {
      return in.readAllBytes();
    } catch (NoSuchFileException e) {
      throw new UserException("mapping file not found: " + file);
    } catch (DebugFileInput.TooLargeException e) {
      throw new UserException(file + ": " + e.getMessage());
    } catch (IOException e) {
      // e.g. a truncated gzip: the file is bad, not the program
      throw new UserException(file + ": cannot read the mapping: " + e.getMessage());
    }
  }

  /** A JVM source bundle's files as the stream holds them: source pages, decoded in memory. */
  static PageSource<SourcePage> readBundle(Path file) {
    SourceBundle b;
    try {
      b = SourceBundle.read(Files.readAllBytes(file));
    } catch (NoSuchFileException e) {
      throw new UserException("source bundle not found: " + file);
    } catch (IOException | SourceBundleException e) {
      throw new UserException(file + ": " + e.getMessage());
    }
    List<String> skipped = new ArrayList<>();
    JvmTable t = JvmSourceBundle.table(b, Long.MAX_VALUE, skipped);
    for (String why : skipped) {
      System.err.println(file + ": skipped " + why);
    }
    return new InMemoryPageSource<>(
        t.pages().stream().filter(p -> SourcePages.isSourceKey(p.firstKey())).toList(),
        SourcePages::decode);
  }

  /** The context of a frame from the first bundle that has its file ({@link JvmSourcePath}). */
  record FrameSources(List<PageSource<SourcePage>> bundles, int lines) {
    SourceContext of(String cls, String file, int line) {
      if (line <= 0 || lines == 0) {
        return null;
      }
      String url = JvmSourcePath.of(cls, file);
      for (PageSource<SourcePage> b : bundles) {
        SourceContext c = SourcePages.context(b, url, line, lines);
        if (c != null) {
          return c;
        }
      }
      return null;
    }
  }

  private static void writeJson(
      Retracer retracer,
      TraceRetracer.Style st,
      String text,
      OutputStream out,
      FrameSources sources)
      throws IOException {
    JsonFactory f = new JsonFactory();
    JsonGenerator g = f.createGenerator(out);
    g.setRootValueSeparator(null);
    TraceRetracer tr =
        new TraceRetracer(retracer, st)
            .listener(
                (input, result, frames) -> {
                  try {
                    g.writeStartObject();
                    g.writeStringField("class", input.className());
                    g.writeStringField("method", input.method());
                    if (input.line() >= 0) {
                      g.writeNumberField("line", input.line());
                    }
                    g.writeStringField("status", result.status().name().toLowerCase(Locale.ROOT));
                    g.writeArrayFieldStart("frames");
                    if (result.status() == FrameResult.Status.CLASS_ONLY) {
                      frameJson(
                          g,
                          result.originalClass(),
                          input.method(),
                          null,
                          input.line(),
                          false,
                          sources.of(result.originalClass(), input.file(), input.line()));
                    }
                    boolean ambiguous = result.ambiguous();
                    for (RetracedFrame rf : frames) {
                      String file = rf.r8File(input.file());
                      frameJson(
                          g,
                          rf.className(),
                          rf.method(),
                          file,
                          rf.line(),
                          ambiguous,
                          sources.of(rf.className(), file, rf.line()));
                    }
                    g.writeEndArray();
                    g.writeEndObject();
                    g.writeRaw('\n');
                  } catch (IOException e) {
                    throw new UncheckedIOException(e);
                  }
                });
    StringBuilder sink = new StringBuilder();
    int pos = 0;
    while (pos < text.length()) {
      int nl = text.indexOf('\n', pos);
      int end = nl < 0 ? text.length() : nl;
      int e = end > pos && text.charAt(end - 1) == '\r' ? end - 1 : end;
      tr.line(text.substring(pos, e), sink);
      sink.setLength(0);
      pos = end + 1;
    }
    g.flush();
  }

  private static void frameJson(
      JsonGenerator g,
      String cls,
      String method,
      String file,
      int line,
      boolean ambiguous,
      SourceContext context)
      throws IOException {
    g.writeStartObject();
    g.writeStringField("class", cls);
    g.writeStringField("method", method);
    if (file != null) {
      g.writeStringField("file", file);
    }
    if (line > 0) {
      g.writeNumberField("line", line);
    }
    g.writeBooleanField("ambiguous", ambiguous);
    if (context != null) {
      g.writeArrayFieldStart("pre_context");
      for (String l : context.preContext()) {
        g.writeString(l);
      }
      g.writeEndArray();
      g.writeStringField("context_line", context.contextLine());
      g.writeArrayFieldStart("post_context");
      for (String l : context.postContext()) {
        g.writeString(l);
      }
      g.writeEndArray();
    }
    g.writeEndObject();
  }
}
