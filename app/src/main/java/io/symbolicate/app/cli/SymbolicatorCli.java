package io.symbolicate.app.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of {@code ./symbolicator}: the CLI owns configuration, the topology reads none. */
@Command(
    name = "symbolicator",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Crash symbolication pipeline on Kafka Streams (native, JavaScript, JVM).")
public final class SymbolicatorCli {

  public static void main(String[] args) {
    if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
      // what scripts call to see that the tool is there: answered without building any model
      System.out.println(new VersionProvider().getVersion()[0]);
      System.exit(0);
    }
    int code;
    try {
      code = execute(args);
    } catch (OutOfMemoryError e) {
      // one line, as for any other error: what ran out and how to give it more
      System.err.println(
          "error: out of memory ("
              + e.getMessage()
              + "; the max heap is "
              + (Runtime.getRuntime().maxMemory() >> 20)
              + " MB): set a larger -Xmx in JAVA_OPTS");
      if ("1".equals(System.getenv("SYMBOLICATOR_DEBUG"))) {
        e.printStackTrace();
      }
      code = 1;
    }
    System.exit(code);
  }

  /** Runs the CLI without exiting, so tests can call it. */
  public static int execute(String... args) {
    return newCommandLine(args).execute(args);
  }

  /** The whole command tree (every subcommand's model), as tests and {@code --help} use it. */
  public static CommandLine newCommandLine() {
    return CommandTree.full();
  }

  /**
   * The command line for these arguments: only the invoked command's model is built, so a
   * one-shot command loads none of the classes of the others.
   */
  public static CommandLine newCommandLine(String... args) {
    return CommandTree.forArgs(args);
  }
}
