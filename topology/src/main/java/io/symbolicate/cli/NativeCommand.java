package io.symbolicate.cli;

import picocli.CommandLine.Command;

/** Placeholder: the native engine's commands land with its issue. */
@Command(name = "native", mixinStandardHelpOptions = true, description = "native symbols (in progress).")
final class NativeCommand implements Runnable {
  @Override
  public void run() {
    throw new UserException("the native engine is not built yet");
  }
}
