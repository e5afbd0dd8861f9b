package io.symbolicate.app.cli;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.app.runtime.StartupException;
import io.symbolicate.app.runtime.SymbolicatorApp;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code symbolicator run}: the stream application against a configured cluster. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = {
      "Run the symbolication stream application against a Kafka cluster.",
      "Reads crash-events.raw, writes crash-events.symbolicated and crash-events.dlq",
      "(names configurable). Stops cleanly on Ctrl-C / SIGTERM."
    })
final class RunCommand implements Callable<Integer> {
  @Mixin ConfigOptions config;

  @Override
  public Integer call() throws Exception {
    AppConfig cfg = config.load();
    cfg.bootstrapServers(); // fail early with a clear message
    SymbolicatorApp app;
    try {
      app = SymbolicatorApp.start(cfg);
    } catch (StartupException e) {
      throw new UserException(e.getMessage(), 3, e);
    } catch (AppConfig.ConfigException e) {
      throw new UserException(e.getMessage());
    }
    Runtime.getRuntime().addShutdownHook(new Thread(app::close, "symbolicator-shutdown"));
    System.err.printf(
        "symbolicator: running (application.id=%s, bootstrap.servers=%s)%n",
        cfg.get(ConfigKeys.APPLICATION_ID), cfg.bootstrapServers());
    if (app.api() != null) {
      System.err.printf(
          "symbolicator: HTTP API on %s (GET /metrics, /health)%n", app.api().server().uri());
    }
    if (app.metricsPort() >= 0) {
      System.err.printf(
          "symbolicator: metrics on http://%s:%d/metrics, health on /health%n",
          cfg.get(ConfigKeys.METRICS_HOST), app.metricsPort());
    }
    app.awaitStop();
    return app.failed() ? 1 : 0;
  }
}
