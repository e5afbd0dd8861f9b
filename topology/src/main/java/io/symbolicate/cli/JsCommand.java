package io.symbolicate.cli;

import picocli.CommandLine.Command;

/** Placeholder: the js engine's commands land with its issue. */
@Command(name = "js", mixinStandardHelpOptions = true, description = "js symbols (in progress).")
final class JsCommand implements Runnable {
  @Override
  public void run() {
    throw new UserException("the js engine is not built yet");
  }
}
