package io.symbolicate.app.cli;

import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import picocli.CommandLine;

/**
 * The top-level commands by name, each built only when asked for. Picocli builds a command's
 * model by reflection over its classes and their fields' types, so a tree of every command loads
 * the classes of all of them (Kafka's, Jetty's, Jackson's); a one-shot command builds its own
 * branch alone and starts in a fraction of the time (docs/operations.md, "Command line").
 */
final class CommandTree {
  /** Every top-level command name in the order {@code --help} lists them. */
  static final List<String> NAMES =
      List.of(
          "help",
          "run",
          "aggregate",
          "serve",
          "demo",
          "loader",
          "reset",
          "clean",
          "reprocess",
          "bench",
          "native",
          "js",
          "jvm",
          "dotnet",
          "sources",
          "minidump",
          "apple",
          "signature");

  private CommandTree() {}

  /**
   * The command line for these arguments: the top command with only the subcommand that the
   * first argument names, or with every subcommand when it names none (help, usage errors).
   */
  static CommandLine forArgs(String... args) {
    CommandLine top = new CommandLine(new SymbolicatorCli());
    String first = args.length == 0 ? null : args[0];
    if (first != null && NAMES.contains(first) && !first.equals("help")) {
      add(top, first);
    } else if (!isVersionOnly(args)) {
      NAMES.forEach(name -> add(top, name));
    }
    return finish(top);
  }

  /** The whole tree, as {@code --help} shows it. */
  static CommandLine full() {
    CommandLine top = new CommandLine(new SymbolicatorCli());
    NAMES.forEach(name -> add(top, name));
    return finish(top);
  }

  private static boolean isVersionOnly(String... args) {
    return args.length == 1 && (args[0].equals("-V") || args[0].equals("--version"));
  }

  /** Settings that reach every command: picocli passes them down to the subcommands present. */
  private static CommandLine finish(CommandLine top) {
    top.setExecutionExceptionHandler(new CliErrors());
    HelpText.reflow(top);
    return top;
  }

  /** Adds one command; its classes are named here alone, so the JVM loads only those used. */
  private static void add(CommandLine top, String name) {
    CommandLine sub =
        switch (name) {
          case "help" -> new CommandLine(new CommandLine.HelpCommand());
          case "run" -> new CommandLine(new RunCommand());
          case "aggregate" -> new CommandLine(new AggregateCommand());
          case "serve" -> new CommandLine(new ServeCommand());
          case "demo" ->
              module(
                  "demo",
                  "demo",
                  "Run the pipeline on embedded defaults: an in-process Kafka broker and S3 server,",
                  "sample crash events of every platform plus bad inputs; print what came out,"
                      + " then stop.");
          case "loader" -> new CommandLine(new LoaderCommand());
          case "reset" -> new CommandLine(new ResetCommand());
          case "clean" -> new CommandLine(new CleanCommand());
          case "reprocess" -> new CommandLine(new ReprocessCommand());
          case "bench" -> module("bench", "benchmarks", "Benchmarks.");
          case "native" -> new CommandLine(new NativeCommand());
          case "js" -> new CommandLine(new JsCommand());
          case "jvm" -> new CommandLine(new JvmCommand());
          case "dotnet" -> new CommandLine(new DotnetCommand());
          case "sources" -> new CommandLine(new SourcesCommand());
          case "minidump" -> new CommandLine(new MinidumpCommand());
          case "apple" -> new CommandLine(new AppleCommand());
          case "signature" -> new CommandLine(new SignatureCommand());
          default -> throw new IllegalArgumentException("no command " + name);
        };
    top.addSubcommand(name, sub);
  }

  /** The module's command when it is on the classpath, else one that says how to get it. */
  private static CommandLine module(String name, String module, String... description) {
    Map<String, ModuleCommand> found = new TreeMap<>();
    ServiceLoader.load(ModuleCommand.class).forEach(c -> found.put(c.name(), c));
    ModuleCommand c = found.get(name);
    if (c != null) {
      return new CommandLine(c);
    }
    return MissingModuleCommand.of(name, module, description);
  }
}
