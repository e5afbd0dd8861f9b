package io.symbolicate.cli;

import io.symbolicate.topology.app.AppConfig;
import io.symbolicate.topology.app.SymbolicatorApp;
import io.symbolicate.topology.loader.SymbolLoader;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code symbolicator loader}: the symbol loader on its own, to scale it apart from the stream. */
@Command(name = "loader", mixinStandardHelpOptions = true,
    description = {"Run only the symbol loader: read symbols.requests and symbols.uploads, fetch debug",
        "files from the configured sources, publish tables to symbols.tables. Pair with",
        "'run --set loader.embedded=false' on the stream instances."})
final class LoaderCommand implements Callable<Integer> {
  @Mixin ConfigOptions config;

  @Override
  public Integer call() throws Exception {
    AppConfig cfg = config.load();
    cfg.bootstrapServers();
    SymbolLoader loader;
    try {
      SymbolicatorApp.checkClusterAndTopics(cfg, cfg.topicNames());
      loader = SymbolicatorApp.startLoader(cfg);
    } catch (SymbolicatorApp.StartupException e) {
      throw new UserException(e.getMessage(), 3, e);
    } catch (AppConfig.ConfigException e) {
      throw new UserException(e.getMessage());
    }
    CountDownLatch stop = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      loader.close();
      stop.countDown();
    }, "loader-shutdown"));
    System.err.printf("symbolicator: loader running (bootstrap.servers=%s)%n", cfg.bootstrapServers());
    stop.await();
    return 0;
  }
}
