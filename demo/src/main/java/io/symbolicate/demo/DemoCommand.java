package io.symbolicate.demo;

import io.symbolicate.app.cli.ModuleCommand;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code symbolicator demo}: everything embedded, sample data in, a summary out. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
      "Show the whole product on embedded defaults: an in-process Kafka broker and S3 server and",
      "the app with its HTTP API. Uploads symbols over HTTP, posts a minidump to /submit, sends",
      "native, Apple, JavaScript and JVM events plus bad inputs, prints what came out (signatures,",
      "dead letters, top crashers), reprocesses the events a late upload mends, shows the status",
      "page's address, then stops (or, with --keep-running, stays up until Ctrl-C).",
      "Exit 0 when every record came out and every reprocessed event came out again."
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

  @Option(
      names = "--keep-running",
      description =
          "Leave the broker, S3 server and app running after the summary, so the status page and"
              + " the API can be opened in a browser or with curl; Ctrl-C stops them.")
  boolean keepRunning;

  @Option(
      names = {"-p", "--port"},
      defaultValue = "0",
      paramLabel = "PORT",
      description = "Port of the HTTP API (default: ${DEFAULT-VALUE}, any free port).")
  int port;

  @Override
  public Integer call() throws Exception {
    PrintStream out = System.out;
    CountDownLatch stop = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    Demo.Result r;
    try {
      r =
          Demo.run(
              out,
              Duration.ofSeconds(timeoutSeconds),
              port,
              result -> {
                DemoSummary.print(out, result);
                if (keepRunning) {
                  waitForCtrlC(out, result, stop, closed);
                }
              });
    } finally {
      closed.countDown();
    }
    return r.complete() ? 0 : 1;
  }

  private static void waitForCtrlC(
      PrintStream out, Demo.Result r, CountDownLatch stop, CountDownLatch closed) {
    // Ctrl-C runs the hook: it lets the demo close everything, and waits for that
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  // the broker's temp directories have shutdown hooks of their own that delete
                  // them while it closes: its complaints would bury the last lines on the way out
                  System.setErr(new PrintStream(OutputStream.nullOutputStream()));
                  stop.countDown();
                  try {
                    closed.await(30, TimeUnit.SECONDS);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                },
                "demo-stop"));
    out.println();
    out.println("Still running (--keep-running); Ctrl-C stops everything. Open or try:");
    out.println("  " + r.api().resolve("status") + "   the status page");
    out.println("  " + r.api().resolve("api/top-crashers?since=24h") + "   the top crashers");
    out.println(
        "  curl -F ProductName=Crashy -F Version=1.0 -F upload_file_minidump=@crash.dmp "
            + r.api().resolve("submit"));
    out.println(
        "  curl -H 'Authorization: APIKey "
            + Demo.KEY
            + "' --data-binary @file.sym "
            + r.api().resolve("api/symbols-breakpad"));
    out.flush();
    try {
      stop.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    out.println("stopping…");
  }
}
