package io.symbolicate.app.cli;

/**
 * A command that lives in a module beside the app because it brings test infrastructure along
 * (the demo and the benchmark runners start an in-process broker and S3 server). The production
 * classpath lacks them; the launcher adds a module's classpath for its command, and the CLI finds
 * the command through {@link java.util.ServiceLoader}. Implementations are picocli commands.
 */
public interface ModuleCommand {
  /** The command's name, as its {@code @Command} annotation gives it. */
  String name();
}
