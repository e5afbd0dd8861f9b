package io.symbolicate.demo;

import io.symbolicate.app.cli.ModuleCommand;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code symbolicator demo}: everything embedded, sample data in, a summary out. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Run the pipeline on embedded defaults: an in-process Kafka broker and S3 server,",
      "sample crash events of every platform plus bad inputs; print what came out, then stop."
    })
public final class DemoCommand implements Callable<Integer>, ModuleCommand {
  @Override
  public String name() {
    return "demo";
  }

  @Option(
      names = "--timeout",
      defaultValue = "120",
      paramLabel = "SECONDS",
      description = "Give up waiting for outputs after this long (default: ${DEFAULT-VALUE}).")
  int timeoutSeconds;

  @Override
  public Integer call() throws Exception {
    Demo.Result r = Demo.run(System.out, Duration.ofSeconds(timeoutSeconds));
    DemoSummary.print(System.out, r);
    return r.complete() ? 0 : 1;
  }
}
