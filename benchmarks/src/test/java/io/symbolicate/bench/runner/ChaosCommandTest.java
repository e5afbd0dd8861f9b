package io.symbolicate.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.app.cli.UserException;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ChaosCommandTest {
  @Test
  void settingsForTheInstancesAreCollectedInOrder() {
    ChaosCommand c = new ChaosCommand();
    new CommandLine(c)
        .parseArgs("--set", "streams.commit.interval.ms=1000", "--set", "park.timeout.ms=5000");
    assertThat(c.settings)
        .containsExactly("streams.commit.interval.ms=1000", "park.timeout.ms=5000");
  }

  @Test
  void aSettingWithoutAKeyIsRefusedBeforeAnythingStarts() {
    ChaosCommand c = new ChaosCommand();
    new CommandLine(c).parseArgs("--set", "=1000");
    assertThatThrownBy(c::call)
        .isInstanceOf(UserException.class)
        .hasMessageContaining("--set takes KEY=VALUE");
  }
}
