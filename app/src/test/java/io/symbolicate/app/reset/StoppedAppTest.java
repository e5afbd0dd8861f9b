package io.symbolicate.app.reset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.runtime.SymbolEngines;
import io.symbolicate.topology.SymbolicationTopology;
import io.symbolicate.topology.config.TopologyConfig;
import org.junit.jupiter.api.Test;

class StoppedAppTest {

  @Test
  void theInternalTopicsAreNamedExactlyFromTheTopology() {
    var description =
        SymbolicationTopology.build(TopologyConfig.defaults(), SymbolEngines.steps()).describe();
    assertThat(StoppedApp.internalTopicsOf("symbolicator", description))
        .containsExactlyInAnyOrder(
            "symbolicator-parked-events-native-changelog",
            "symbolicator-parked-events-javascript-changelog",
            "symbolicator-parked-events-jvm-changelog",
            "symbolicator-missing-symbols-changelog",
            "symbolicator-missing-by-module-repartition");
  }

  @Test
  void theAppsOwnIdAndStateDirAreTheOnesItRunsWith() {
    AppConfig cfg =
        AppConfig.defaults()
            .set("bootstrap.servers", "127.0.0.1:9")
            .set("state.dir", "/tmp/sd")
            .set("streams.application.id", "other-id");
    StoppedApp app = new StoppedApp(cfg);
    assertThat(app.appId()).isEqualTo("other-id");
    assertThat(app.stateDir()).hasToString("/tmp/sd/other-id");
  }

  /** The id names the directory a reset or clean deletes below state.dir: never state.dir itself or its parent. */
  @Test
  void anIdThatWouldNameAnotherDirectoryIsRefused() {
    for (String id : new String[] {".", "..", "a/b", "../x", "", "sym bol"}) {
      AppConfig cfg =
          AppConfig.defaults()
              .set("bootstrap.servers", "127.0.0.1:9")
              .set("state.dir", "/tmp/sd")
              .set("application.id", id);
      assertThatThrownBy(() -> new StreamsReset(cfg))
          .as(id)
          .isInstanceOf(ResetException.class)
          .hasMessageContaining("application.id");
      assertThatThrownBy(() -> new StreamsClean(cfg))
          .as(id)
          .isInstanceOf(ResetException.class)
          .hasMessageContaining("application.id");
    }
  }
}
