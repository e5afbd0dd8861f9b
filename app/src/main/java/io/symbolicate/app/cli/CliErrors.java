package io.symbolicate.app.cli;

import io.symbolicate.app.config.AppConfig;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns exceptions into one clear line on stderr instead of a stack trace.
 * {@link UserException} carries messages meant for the user; anything else is a bug and
 * keeps its stack trace when {@code SYMBOLICATOR_DEBUG=1}.
 */
final class CliErrors implements IExecutionExceptionHandler {
  @Override
  public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parseResult) {
    String msg = ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage();
    cmd.getErr().println(cmd.getColorScheme().errorText("error: " + msg));
    if (!(ex instanceof UserException)
        && !(ex instanceof AppConfig.ConfigException)
        && "1".equals(System.getenv("SYMBOLICATOR_DEBUG"))) {
      ex.printStackTrace(cmd.getErr());
    }
    if (ex instanceof UserException ue) {
      return ue.exitCode();
    }
    // a configuration the user gave is wrong (a key unset, a value out of range), wherever a
    // command meets it: a usage error, as the README's exit codes say
    return ex instanceof AppConfig.ConfigException ? 2 : 1;
  }
}
