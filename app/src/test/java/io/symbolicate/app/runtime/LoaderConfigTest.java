package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.AppConfig.ConfigException;
import io.symbolicate.app.config.KafkaProperties;
import io.symbolicate.connectors.loader.CpuBudget;
import io.symbolicate.connectors.loader.LoaderSettings;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

/** The loader's configuration keys: their defaults, and the values they refuse. */
class LoaderConfigTest {
  @Test
  void theConfigurationKeyTurnsItOff() {
    assertThat(LoaderFactory.loaderSettings(AppConfig.defaults()).warmup()).isTrue();
    assertThat(
            LoaderFactory.loaderSettings(AppConfig.defaults().set("loader.warmup", "false"))
                .warmup())
        .isFalse();
    Assertions.assertThatThrownBy(
            () ->
                LoaderFactory.loaderSettings(
                    AppConfig.defaults().set("loader.warmup", "sometimes")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("loader.warmup");
  }

  @Test
  void configKeysHaveTheirDefaultsAndAnIdleShareBelowTheBusyOneIsRaised() {
    CpuBudget d = LoaderFactory.loaderSettings(AppConfig.defaults()).cpuBudget();
    assertThat(d)
        .isEqualTo(
            new CpuBudget(LoaderSettings.DEFAULT_CPU_SHARE, LoaderSettings.DEFAULT_CPU_SHARE_IDLE));
    assertThat(d).isEqualTo(LoaderSettings.defaults().cpuBudget());
    CpuBudget fixed =
        LoaderFactory.loaderSettings(AppConfig.defaults().set("loader.cpu.share", "2")).cpuBudget();
    assertThat(fixed).isEqualTo(CpuBudget.fixed(2));
    CpuBudget set =
        LoaderFactory.loaderSettings(
                AppConfig.defaults()
                    .set("loader.cpu.share", "0.2")
                    .set("loader.cpu.share.idle", "0.5"))
            .cpuBudget();
    assertThat(set).isEqualTo(new CpuBudget(0.2, 0.5));
    assertThatThrownBy(
            () ->
                LoaderFactory.loaderSettings(
                    AppConfig.defaults().set("loader.cpu.share.idle", "0")))
        .hasMessageContaining("loader.cpu.share.idle");
  }

  /** A killed instance's loader gives its requests' partitions up as fast as its stream thread does. */
  @Test
  void theLoadersGroupHasTheStreamsSessionTimeout() {
    var d = KafkaProperties.loader(AppConfig.defaults());
    assertThat(d)
        .containsEntry("session.timeout.ms", "6000")
        .containsEntry("heartbeat.interval.ms", "1500");
    var set =
        KafkaProperties.loader(
            AppConfig.defaults()
                .set("group.session.timeout.ms", "10000")
                .set("streams.security.protocol", "SSL"));
    assertThat(set)
        .containsEntry("session.timeout.ms", "10000")
        .containsEntry("heartbeat.interval.ms", "2500")
        .containsEntry("security.protocol", "SSL");
  }

  @Test
  void configKeyHasItsDefaultAndRejectsBadValues() {
    assertThat(AppConfig.defaults().getPositiveDouble("loader.cpu.share"))
        .isEqualTo(LoaderSettings.DEFAULT_CPU_SHARE);
    assertThat(
            AppConfig.defaults()
                .set("loader.cpu.share", "0.5")
                .getPositiveDouble("loader.cpu.share"))
        .isEqualTo(0.5);
    for (String bad : List.of("0", "-0.5", "abc", "Infinity")) {
      assertThatThrownBy(
              () ->
                  AppConfig.defaults()
                      .set("loader.cpu.share", bad)
                      .getPositiveDouble("loader.cpu.share"))
          .as(bad)
          .hasMessageContaining("loader.cpu.share");
    }
  }
}
