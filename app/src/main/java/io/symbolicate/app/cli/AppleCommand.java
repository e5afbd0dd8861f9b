package io.symbolicate.app.cli;

import io.symbolicate.symbols.apple.AppleReportPrinter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

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
        "Parse a .crash or .ips report and print it as JSON, with the field names and rules of",
        "apple-crash-report-parser (absent fields omitted, UUIDs lower-case, timestamps in UTC)."
      })
  static final class Parse implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE", description = "the crash report")
    Path file;

    @Override
    public Integer call() {
      return AppleReportPrinter.run(new String[] {file.toString()}, System.out, System.err);
    }
  }
}
