package io.symbolicate.app.cli;

import io.symbolicate.symbols.apple.AppleCrashReportException;
import io.symbolicate.symbols.apple.AppleReportPrinter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code symbolicator apple}: Apple crash reports (.crash text and .ips JSON). */
@Command(
    name = "apple",
    mixinStandardHelpOptions = true,
    description = "Apple crash reports (.crash and .ips): parse them.",
    subcommands = {AppleCommand.Parse.class})
final class AppleCommand implements Runnable {
  @Override
  public void run() {
    throw new UserException("missing subcommand: use 'apple parse FILE' (see 'apple --help')");
  }

  @Command(
      name = "parse",
      mixinStandardHelpOptions = true,
      description = {
        "Parse a .crash or .ips report and print it as JSON, with the field names and rules of"
            + " apple-crash-report-parser (absent fields omitted, UUIDs lower-case, timestamps in"
            + " UTC).",
        "Several reports (files, directories of .crash and .ips files, or - for a list of paths"
            + " on stdin) are parsed on --threads threads: one NAME.json per report into"
            + " --output-dir, or one JSON line per report on stdout ({\"input\", \"report\"} or"
            + " {\"input\", \"error\"})."
      })
  static final class Parse implements Callable<Integer> {
    /** Exit status when the report cannot be parsed (bad input, as opposed to a usage error). */
    static final int EXIT_BAD_REPORT = 1;

    @Spec CommandSpec spec;

    @Parameters(
        arity = "1..*",
        paramLabel = "FILE",
        description = "crash reports, directories of them, or - (paths on stdin)")
    List<String> files;

    @Mixin BatchOptions batch;

    @Override
    public Integer call() {
      if (Batch.isBatch(files, batch.outputDir)) {
        return Batch.run(
            Batch.inputs(files, System.in, ".crash", ".ips"),
            AppleCommand::report,
            batch.options(".json", true),
            System.out,
            spec.commandLine().getErr());
      }
      Path file = Path.of(files.get(0));
      PrintWriter err = spec.commandLine().getErr();
      try {
        AppleReportPrinter.print(file, System.out);
        return 0;
      } catch (AppleCrashReportException e) {
        err.println(file + ": " + e.getMessage());
        return EXIT_BAD_REPORT;
      } catch (IOException e) {
        err.println(file + ": cannot read: " + e.getMessage());
        return EXIT_BAD_REPORT;
      }
    }
  }

  /** One report's JSON, as {@code apple parse FILE} prints it. */
  private static String report(Path file) throws IOException, AppleCrashReportException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    AppleReportPrinter.print(file, out);
    return out.toString(StandardCharsets.UTF_8);
  }
}
