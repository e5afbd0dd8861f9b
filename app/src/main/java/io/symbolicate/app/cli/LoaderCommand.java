package io.symbolicate.app.cli;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.app.metrics.AppMetrics;
import io.symbolicate.app.metrics.Health;
import io.symbolicate.app.metrics.HealthHandler;
import io.symbolicate.app.metrics.MetricsServer;
import io.symbolicate.app.runtime.ApiRuntime;
import io.symbolicate.app.runtime.LoaderFactory;
import io.symbolicate.app.runtime.StartupException;
import io.symbolicate.app.runtime.TopicProvisioner;
import io.symbolicate.connectors.loader.SymbolLoader;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code symbolicator loader}: the symbol loader on its own, to scale it apart from the stream. */
@Command(
    name = "loader",
    mixinStandardHelpOptions = true,
    description = {
      "Run only the symbol loader: read symbols.requests and symbols.uploads, fetch debug",
      "files from the configured sources, publish tables to symbols.tables. Pair with",
      "'run --set loader.embedded=false' on the stream instances."
    })
final class LoaderCommand implements Callable<Integer> {
  @Mixin ConfigOptions config;

  @Override
  public Integer call() throws Exception {
    AppConfig cfg = config.load();
    cfg.bootstrapServers();
    SymbolLoader loader;
    int metricsPort;
    try {
      metricsPort = cfg.metricsPort();
      TopicProvisioner.ensure(cfg, cfg.topicNames(), false);
      loader = LoaderFactory.start(cfg);
    } catch (StartupException e) {
      throw new UserException(e.getMessage(), 3, e);
    } catch (AppConfig.ConfigException e) {
      throw new UserException(e.getMessage());
    }
    // the loader's own meters and readiness (ready once it has read symbols.index)
    AppMetrics metrics = new AppMetrics().bindLoader(loader);
    MetricsServer server = null;
    if (metricsPort >= 0) {
      Health health =
          () ->
              new Health.Report(
                  loader.failed()
                      ? Health.Status.DOWN
                      : loader.indexLoaded() ? Health.Status.UP : Health.Status.STARTING,
                  Map.of(
                      "loader",
                      Map.of(
                          "embedded",
                          false,
                          "index_loaded",
                          loader.indexLoaded(),
                          "in_flight",
                          loader.inFlight(),
                          "failed",
                          loader.failed())));
      metrics.bindHealth(health);
      try {
        server =
            MetricsServer.start(
                cfg.get(ConfigKeys.METRICS_HOST),
                metricsPort,
                ApiRuntime.routes(
                    ApiRuntime.Parts.operations(
                        metrics.metricsHandler(), new HealthHandler(health))));
      } catch (UncheckedIOException e) {
        loader.close();
        throw new UserException(e.getMessage(), 3, e);
      }
    }
    MetricsServer metricsServer = server;
    CountDownLatch stop = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  if (metricsServer != null) {
                    metricsServer.close();
                  }
                  loader.close();
                  metrics.close();
                  stop.countDown();
                },
                "loader-shutdown"));
    System.err.printf(
        "symbolicator: loader running (bootstrap.servers=%s)%n", cfg.bootstrapServers());
    if (metricsServer != null) {
      System.err.printf(
          "symbolicator: metrics on http://%s:%d/metrics, health on /health%n",
          cfg.get(ConfigKeys.METRICS_HOST), metricsServer.port());
    }
    stop.await();
    return 0;
  }
}
