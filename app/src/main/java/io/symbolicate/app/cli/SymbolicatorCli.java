package io.symbolicate.app.cli;

import io.symbolicate.bench.runner.BenchCommand;
import io.symbolicate.demo.DemoCommand;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of {@code ./symbolicator}: the CLI owns configuration, the topology reads none. */
@Command(
    name = "symbolicator",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Crash symbolication pipeline on Kafka Streams (native, JavaScript, JVM).",
    subcommands = {
      CommandLine.HelpCommand.class,
      RunCommand.class,
      ServeCommand.class,
      DemoCommand.class,
      LoaderCommand.class,
      ResetCommand.class,
      CleanCommand.class,
      ReprocessCommand.class,
      BenchCommand.class,
      NativeCommand.class,
      JsCommand.class,
      JvmCommand.class,
    })
public final class SymbolicatorCli {

  public static void main(String[] args) {
    int code;
    try {
      code = execute(args);
    } catch (OutOfMemoryError e) {
      // one line, as for any other error: what ran out and how to give it more
      System.err.println("error: out of memory (" + e.getMessage() + "; the max heap is "
          + (Runtime.getRuntime().maxMemory() >> 20) + " MB): set a larger -Xmx in JAVA_OPTS");
      if ("1".equals(System.getenv("SYMBOLICATOR_DEBUG"))) {
        e.printStackTrace();
      }
      code = 1;
    }
    System.exit(code);
  }

  /** Runs the CLI without exiting, so tests can call it. */
  public static int execute(String... args) {
    return newCommandLine().execute(args);
  }

  public static CommandLine newCommandLine() {
    CommandLine cl = new CommandLine(new SymbolicatorCli());
    cl.setExecutionExceptionHandler(new CliErrors());
    return cl;
  }
}
