package io.symbolicate.app.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/** Stands in for a {@link ModuleCommand} whose module is not on the classpath, and says how to run it. */
@Command(mixinStandardHelpOptions = true)
final class MissingModuleCommand implements Callable<Integer> {
  private final String name;
  private final String module;

  @Unmatched String[] ignored;

  private MissingModuleCommand(String name, String module) {
    this.name = name;
    this.module = module;
  }

  static CommandLine of(String name, String module, String... description) {
    CommandLine cl = new CommandLine(new MissingModuleCommand(name, module));
    cl.getCommandSpec().name(name).usageMessage().description(description);
    return cl;
  }

  @Override
  public Integer call() {
    System.err.println(
        "error: '"
            + name
            + "' lives in the "
            + module
            + " module, which is not on this "
            + "classpath; run it as ./symbolicator "
            + name);
    return 2;
  }
}
