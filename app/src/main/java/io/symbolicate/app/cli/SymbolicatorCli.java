package io.symbolicate.app.cli;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
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
    return newCommandLine().execute(args);
  }

  public static CommandLine newCommandLine() {
    Map<String, ModuleCommand> modules = new TreeMap<>();
    ServiceLoader.load(ModuleCommand.class).forEach(c -> modules.put(c.name(), c));
    CommandLine cl = new CommandLine(new SymbolicatorCli());
    cl.addSubcommand(new CommandLine.HelpCommand());
    cl.addSubcommand(new RunCommand());
    cl.addSubcommand(new AggregateCommand());
    cl.addSubcommand(new ServeCommand());
    cl.addSubcommand(
        "demo",
        moduleCommand(
            modules,
            "demo",
            "demo",
            "Run the pipeline on embedded defaults: an in-process Kafka broker and S3 server,",
            "sample crash events of every platform plus bad inputs; print what came out, then stop."));
    cl.addSubcommand(new LoaderCommand());
    cl.addSubcommand(new ResetCommand());
    cl.addSubcommand(new CleanCommand());
    cl.addSubcommand(new ReprocessCommand());
    cl.addSubcommand("bench", moduleCommand(modules, "bench", "benchmarks", "Benchmarks."));
    cl.addSubcommand(new NativeCommand());
    cl.addSubcommand(new JsCommand());
    cl.addSubcommand(new JvmCommand());
    cl.addSubcommand(new MinidumpCommand());
    cl.addSubcommand(new AppleCommand());
    cl.addSubcommand(new SignatureCommand());
    cl.setExecutionExceptionHandler(new CliErrors());
    return cl;
  }

  /** The module's command when it is on the classpath, else one that says how to get it. */
  private static Object moduleCommand(
      Map<String, ModuleCommand> found, String name, String module, String... description) {
    ModuleCommand c = found.get(name);
    if (c != null) {
      return c;
    }
    return MissingModuleCommand.of(name, module, description);
  }
}
