package io.symbolicate.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.app.cli.UserException;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class MinidumpBenchCommandTest {
  @Test
  void settingsForBothAppsAreCollected() {
    BenchCommand.Minidump c = new BenchCommand.Minidump();
    new CommandLine(c).parseArgs("--set", "streams.commit.interval.ms=1000");
    assertThat(c.overrides).containsEntry("streams.commit.interval.ms", "1000");
  }

  @Test
  void anUnknownSettingIsRefusedBeforeAnythingStarts() {
    BenchCommand.Minidump c = new BenchCommand.Minidump();
    new CommandLine(c).parseArgs("--set", "no.such.key=1");
    assertThatThrownBy(c::call)
        .isInstanceOf(UserException.class)
        .hasMessageContaining("no.such.key");
  }
}
