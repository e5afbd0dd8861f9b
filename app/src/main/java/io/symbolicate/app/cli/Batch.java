package io.symbolicate.app.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One command over many inputs on a few threads: each input's report goes to a file of the
 * output directory, or to stdout as one JSON line; a bad input makes an error line and the others
 * go on (docs/operations.md, "Command line").
 */
final class Batch {
  /** What the command does with one input: its report, or an exception that says what failed. */
  interface Job {
    String report(Path input) throws Exception;
  }

  /**
   * How reports are written.
   *
   * @param threads worker threads (at least 1)
   * @param outputDir where reports go as {@code NAME + suffix}; null for JSON lines on stdout
   * @param suffix the report file's name after the input's name less its extension
   * @param jsonReports whether the reports are JSON (embedded as objects in a JSON line)
   * @param failOnError whether a bad input makes the exit status 1
   */
  record Options(
      int threads, Path outputDir, String suffix, boolean jsonReports, boolean failOnError) {}

  private static final JsonFactory JSON = new JsonFactory();

  private Batch() {}

  /** The default of {@code --threads}: the cores this JVM may use. */
  static int threads(int asked) {
    if (asked < 0) {
      throw new UserException("--threads must be at least 1, not " + asked);
    }
    return asked == 0 ? Runtime.getRuntime().availableProcessors() : asked;
  }

  /**
   * The inputs the arguments name: a file as given, a directory's files whose names end with
   * {@code extension} (sorted by name), {@code -} the paths listed on {@code stdin}, one a line.
   */
  static List<Path> inputs(List<String> args, InputStream stdin, String... extensions) {
    List<Path> out = new ArrayList<>();
    for (String a : args) {
      if (a.equals("-")) {
        try {
          BufferedReader r =
              new BufferedReader(new InputStreamReader(stdin, StandardCharsets.UTF_8));
          for (String line; (line = r.readLine()) != null; ) {
            if (!line.isBlank()) {
              out.add(Path.of(line.strip()));
            }
          }
        } catch (IOException e) {
          throw new UserException("cannot read the list of inputs on stdin: " + e.getMessage());
        }
      } else if (Files.isDirectory(Path.of(a))) {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(Path.of(a))) {
          for (Path p : dir) {
            if (Files.isRegularFile(p) && endsWithAny(p.getFileName().toString(), extensions)) {
              files.add(p);
            }
          }
        } catch (IOException e) {
          throw new UserException("cannot list " + a + ": " + e.getMessage());
        }
        files.sort(null);
        out.addAll(files);
      } else {
        out.add(Path.of(a));
      }
    }
    return out;
  }

  /** Whether the arguments ask for batch mode rather than one input printed as it is. */
  static boolean isBatch(List<String> args, Path outputDir) {
    return outputDir != null
        || args.size() != 1
        || args.get(0).equals("-")
        || Files.isDirectory(Path.of(args.get(0)));
  }

  /** Runs the job over the inputs; the exit status: 1 for a bad input with failOnError, else 0. */
  static int run(List<Path> inputs, Job job, Options o, PrintStream out, PrintWriter err) {
    Map<Path, Path> targets = o.outputDir() == null ? Map.of() : targets(inputs, o);
    ExecutorService pool =
        Executors.newFixedThreadPool(
            o.threads(),
            r -> {
              Thread t = new Thread(r, "batch");
              t.setDaemon(true);
              return t;
            });
    int failed = 0;
    try {
      // reports are written in the inputs' order; a window of a few per thread bounds memory
      int window = 4 * o.threads();
      Deque<Future<Result>> pending = new ArrayDeque<>();
      for (Path input : inputs) {
        pending.add(pool.submit(() -> Result.of(input, job)));
        if (pending.size() >= window) {
          failed += write(take(pending), targets, o, out, err);
        }
      }
      while (!pending.isEmpty()) {
        failed += write(take(pending), targets, o, out, err);
      }
    } finally {
      pool.shutdownNow();
      out.flush();
      err.flush();
    }
    if (failed > 0) {
      err.println(failed + " of " + inputs.size() + " inputs failed");
    }
    return failed > 0 && o.failOnError() ? 1 : 0;
  }

  /** The report file of each input; two inputs of the same name would overwrite each other. */
  private static Map<Path, Path> targets(List<Path> inputs, Options o) {
    try {
      Files.createDirectories(o.outputDir());
    } catch (IOException e) {
      throw new UserException("cannot create --output-dir " + o.outputDir() + ": " + e);
    }
    Map<Path, Path> targets = new HashMap<>();
    Map<Path, Path> byTarget = new HashMap<>();
    for (Path in : inputs) {
      String name = in.getFileName() == null ? in.toString() : in.getFileName().toString();
      int dot = name.lastIndexOf('.');
      Path target = o.outputDir().resolve((dot > 0 ? name.substring(0, dot) : name) + o.suffix());
      Path other = byTarget.putIfAbsent(target, in);
      if (other != null && !other.equals(in)) {
        throw new UserException(
            other + " and " + in + " would both write " + target + ": rename one or run twice");
      }
      targets.put(in, target);
    }
    return targets;
  }

  private static Result take(Deque<Future<Result>> pending) {
    try {
      return pending.removeFirst().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      // Result.of catches every Exception: what remains is an Error (out of memory, a bug)
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /** Writes one result; 1 when it is an error. */
  private static int write(
      Result r, Map<Path, Path> targets, Options o, PrintStream out, PrintWriter err) {
    if (o.outputDir() != null) {
      if (r.error() != null) {
        err.println("error: " + r.input() + ": " + r.error());
        return 1;
      }
      try {
        Files.writeString(targets.get(r.input()), r.report(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        err.println("error: " + r.input() + ": cannot write " + targets.get(r.input()) + ": " + e);
        return 1;
      }
      return 0;
    }
    out.println(jsonLine(r, o.jsonReports()));
    return r.error() == null ? 0 : 1;
  }

  /** {@code {"input": PATH, "report": REPORT}} or {@code {"input": PATH, "error": MESSAGE}}. */
  static String jsonLine(Result r, boolean jsonReport) {
    StringWriter s = new StringWriter(r.report() == null ? 256 : r.report().length() + 64);
    try (JsonGenerator g = JSON.createGenerator(s)) {
      g.writeStartObject();
      g.writeStringField("input", r.input().toString());
      if (r.error() != null) {
        g.writeStringField("error", r.error());
      } else if (jsonReport) {
        g.writeFieldName("report");
        try (JsonParser p = JSON.createParser(r.report())) {
          p.nextToken();
          g.copyCurrentStructure(p); // the report's JSON on one line, fields in their order
        }
      } else {
        g.writeStringField("report", r.report());
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("a report that is not JSON: " + r.input(), e);
    }
    return s.toString();
  }

  /** One input's report, or the message of what went wrong. */
  record Result(Path input, String report, String error) {
    static Result of(Path input, Job job) {
      try {
        return new Result(input, job.report(input), null);
      } catch (Exception e) {
        String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new Result(input, null, msg);
      }
    }
  }

  private static boolean endsWithAny(String name, String... extensions) {
    for (String e : extensions) {
      if (name.endsWith(e)) {
        return true;
      }
    }
    return extensions.length == 0;
  }
}
