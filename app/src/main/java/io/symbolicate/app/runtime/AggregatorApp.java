package io.symbolicate.app.runtime;

import io.symbolicate.api.ApiServer;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.metrics.Health;
import io.symbolicate.app.metrics.HealthHandler;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.streams.KafkaStreams;

/**
 * {@code ./symbolicator aggregate}: the top-crashers aggregation alone, with the HTTP API's
 * top-crasher routes and {@code /health} ({@code http.host}, {@code http.port}). The server
 * starts first, so its port (even {@code http.port=0}) is the {@code application.server}.
 */
public final class AggregatorApp implements AutoCloseable {
  private final ApiServer server;
  private volatile AnalyticsRuntime analytics;

  private AggregatorApp(ApiServer server) {
    this.server = server;
  }

  public static AggregatorApp start(AppConfig cfg) {
    AnalyticsRuntime.config(cfg); // bad settings fail before anything starts
    TopicProvisioner.ensure(cfg, cfg.topicNames(), false);
    AggregatorApp[] app = new AggregatorApp[1];
    Health health =
        () -> {
          AnalyticsRuntime a = app[0] == null ? null : app[0].analytics;
          KafkaStreams.State s = a == null ? KafkaStreams.State.CREATED : a.streams().state();
          return new Health.Report(
              s == KafkaStreams.State.RUNNING
                  ? Health.Status.UP
                  : s.isRunningOrRebalancing() ? Health.Status.STARTING : Health.Status.DOWN,
              Map.of("topcrashers", s.name()));
        };
    ApiServer server;
    try {
      server =
          ApiRuntime.analyticsOnly(
              cfg,
              () -> app[0] == null || app[0].analytics == null ? null : app[0].analytics.counts(),
              new HealthHandler(health));
    } catch (IOException e) {
      throw new StartupException(e.getMessage());
    }
    app[0] = new AggregatorApp(server);
    app[0].analytics = AnalyticsRuntime.start(cfg, AnalyticsRuntime.advertised(cfg, server.port()));
    return app[0];
  }

  public ApiServer server() {
    return server;
  }

  public AnalyticsRuntime analytics() {
    return analytics;
  }

  @Override
  public void close() {
    close(Duration.ofSeconds(30));
  }

  public void close(Duration timeout) {
    server.close();
    if (analytics != null) {
      analytics.close(timeout);
    }
  }
}
