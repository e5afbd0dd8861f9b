package io.symbolicate.symbols.apple;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * What {@code ./symbolicator apple parse FILE} does: parse a {@code .crash} or {@code .ips} file
 * and print the parse as JSON ({@link AppleReportJson}).
 */
public final class AppleReportPrinter {
  /** Exit status when the report cannot be parsed (bad input, as opposed to a usage error). */
  public static final int EXIT_BAD_REPORT = 1;

  public static final int EXIT_USAGE = 2;

  private AppleReportPrinter() {}

  /** Parses {@code file} and writes its JSON to {@code out}. */
  public static void run(Path file, OutputStream out)
      throws IOException, AppleCrashReportException {
    AppleReportJson.write(AppleCrashReportParser.parse(file), out);
  }

  /** Runs with messages on {@code err}; returns the exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length != 1) {
      err.println("usage: apple parse FILE   (a .crash text report or an .ips file)");
      return EXIT_USAGE;
    }
    try {
      run(Path.of(args[0]), out);
      return 0;
    } catch (AppleCrashReportException e) {
      err.println(args[0] + ": " + e.getMessage());
      return EXIT_BAD_REPORT;
    } catch (IOException e) {
      err.println(args[0] + ": cannot read: " + e.getMessage());
      return EXIT_BAD_REPORT;
    }
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }
}
