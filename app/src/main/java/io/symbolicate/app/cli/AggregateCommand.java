package io.symbolicate.app.cli;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.runtime.AggregatorApp;
import io.symbolicate.app.runtime.AnalyticsRuntime;
import io.symbolicate.app.runtime.StartupException;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code symbolicator aggregate}: the top-crashers aggregation alone, with its HTTP routes. */
@Command(
    name = "aggregate",
    mixinStandardHelpOptions = true,
    description = {
      "Count top crashers: read crash-events.symbolicated as a table keyed by event id",
      "(a reprocessed event moves its count, a duplicate changes nothing) and serve",
      "GET /api/top-crashers and /api/signatures/{signature} on http.host:http.port.",
      "Its own application id (analytics.application.id); run several for more partitions.",
      "Stops cleanly on Ctrl-C / SIGTERM."
    })
final class AggregateCommand implements Callable<Integer> {
  @Mixin ConfigOptions config;

  @Override
  public Integer call() throws Exception {
    AppConfig cfg = config.load();
    cfg.bootstrapServers();
    AggregatorApp app;
    try {
      app = AggregatorApp.start(cfg);
    } catch (StartupException e) {
      throw new UserException(e.getMessage(), 3, e);
    } catch (AppConfig.ConfigException e) {
      throw new UserException(e.getMessage());
    }
    CountDownLatch stop = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  app.close();
                  stop.countDown();
                },
                "aggregate-shutdown"));
    System.err.printf(
        "symbolicator: counting top crashers (application.id=%s), API on %s%n",
        AnalyticsRuntime.applicationId(cfg), app.server().uri());
    stop.await();
    return 0;
  }
}
