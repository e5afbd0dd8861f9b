package io.symbolicate.app.runtime;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.app.config.KafkaProperties;
import io.symbolicate.connectors.loader.CpuBudget;
import io.symbolicate.connectors.loader.LoaderSettings;
import io.symbolicate.connectors.loader.ModuleLocator;
import io.symbolicate.connectors.loader.SymbolLoader;
import io.symbolicate.connectors.loader.nativecode.DebugFileLayouts;
import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.connectors.source.SymbolSource;
import io.symbolicate.symbols.table.TableKind;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Builds the symbol loader from the configuration: its sources, caching rules and CPU budget. */
public final class LoaderFactory {
  private static final Logger log = LoggerFactory.getLogger(LoaderFactory.class);

  private LoaderFactory() {}

  /** Starts a loader with the configured sources (also used by {@code symbolicator loader}). */
  public static SymbolLoader start(AppConfig cfg) {
    return create(cfg).start();
  }

  /** A loader with the configured sources, not started. */
  public static SymbolLoader create(AppConfig cfg) {
    return new SymbolLoader(
        cfg.bootstrapServers(),
        KafkaProperties.loader(cfg),
        cfg.get(ConfigKeys.APPLICATION_ID) + "-loader",
        cfg.topicNames(),
        sources(cfg),
        SymbolEngines.converters(),
        locators(cfg),
        loaderSettings(cfg));
  }

  /** Where each platform's files live, native debug files in {@code loader.debug.file.layouts}. */
  public static Map<TableKind, ModuleLocator> locators(AppConfig cfg) {
    DebugFileLayouts layouts;
    try {
      layouts = DebugFileLayouts.parse(cfg.get(ConfigKeys.LOADER_DEBUG_FILE_LAYOUTS));
    } catch (IllegalArgumentException e) {
      throw new AppConfig.ConfigException("loader.debug.file.layouts: " + e.getMessage());
    }
    return SymbolEngines.locators(layouts, cfg.getLong(ConfigKeys.SYMBOLS_MAX_FILE_BYTES));
  }

  /** The configured symbol sources; with none, every module is reported missing. */
  public static SourceChain sources(AppConfig cfg) {
    SourceChain sources = SymbolSources.fromConfig(cfg);
    if (sources == null) {
      log.warn(
          "no symbol source configured (symbols.s3.bucket, symbols.dir, symbols.http.url): "
              + "every module will be reported missing");
      sources =
          new SourceChain(
              List.of(
                  new SymbolSource() {
                    @Override
                    public String name() {
                      return "none";
                    }

                    @Override
                    public FetchResult fetch(String key) {
                      return new FetchResult.NotFound("no symbol source configured");
                    }
                  }));
    }
    return sources;
  }

  /** The loader's behaviour and the caching rules, from the configuration. */
  public static LoaderSettings loaderSettings(AppConfig cfg) {
    return new LoaderSettings(
        cfg.getInt(ConfigKeys.LOADER_CONCURRENCY),
        cfg.getInt(ConfigKeys.LOADER_ATTEMPTS),
        cfg.getMillis(ConfigKeys.LOADER_BACKOFF_MS),
        cfg.getMillis(ConfigKeys.CACHE_MISSING_RETRY_MS),
        cfg.getMillis(ConfigKeys.CACHE_MALFORMED_RETRY_MS),
        cfg.getMillis(ConfigKeys.CACHE_FAILED_RETRY_MS),
        cfg.getMillis(ConfigKeys.CACHE_UNUSED_TTL_MS),
        cfg.getLong(ConfigKeys.SYMBOLS_MAX_FILE_BYTES),
        LoaderSettings.defaults().coalesceWindow(),
        cpuBudget(cfg),
        cfg.getBoolean(ConfigKeys.LOADER_WARMUP));
  }

  /** loader.cpu.share and loader.cpu.share.idle; an idle share below the busy one is raised to it. */
  static CpuBudget cpuBudget(AppConfig cfg) {
    double busy = cfg.getPositiveDouble(ConfigKeys.LOADER_CPU_SHARE);
    return new CpuBudget(
        busy, Math.max(busy, cfg.getPositiveDouble(ConfigKeys.LOADER_CPU_SHARE_IDLE)));
  }
}
