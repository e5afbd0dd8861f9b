package io.symbolicate.cli;

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
    if (!(ex instanceof UserException) && "1".equals(System.getenv("SYMBOLICATOR_DEBUG"))) {
      ex.printStackTrace(cmd.getErr());
    }
    return ex instanceof UserException ue ? ue.exitCode() : 1;
  }
}
