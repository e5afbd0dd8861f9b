package io.symbolicate.app.cli;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** Configuration options shared by commands that run the stream app. */
final class ConfigOptions {
  @Option(
      names = {"-c", "--config"},
      paramLabel = "FILE",
      description = "Properties file with settings (see README: Configuration).")
  Path configFile;

  @Option(
      names = "--set",
      paramLabel = "KEY=VALUE",
      description =
          "Override one setting; repeatable. Keys prefixed 'streams.' go to Kafka Streams.")
  Map<String, String> overrides = new LinkedHashMap<>();

  @Option(
      names = {"-b", "--bootstrap-servers"},
      paramLabel = "HOST:PORT[,...]",
      description = "Kafka bootstrap servers (same as --set bootstrap.servers=...).")
  String bootstrapServers;

  AppConfig load() {
    Map<String, String> all = new LinkedHashMap<>(overrides);
    if (bootstrapServers != null) {
      all.put(ConfigKeys.BOOTSTRAP_SERVERS.name(), bootstrapServers);
    }
    try {
      return AppConfig.load(configFile, all);
    } catch (AppConfig.ConfigException e) {
      throw new UserException(e.getMessage());
    }
  }
}
