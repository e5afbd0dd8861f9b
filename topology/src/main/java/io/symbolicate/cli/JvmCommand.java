package io.symbolicate.cli;

import picocli.CommandLine.Command;

/** Placeholder: the jvm engine's commands land with its issue. */
@Command(name = "jvm", mixinStandardHelpOptions = true, description = "jvm symbols (in progress).")
final class JvmCommand implements Runnable {
  @Override
  public void run() {
    throw new UserException("the jvm engine is not built yet");
  }
}
