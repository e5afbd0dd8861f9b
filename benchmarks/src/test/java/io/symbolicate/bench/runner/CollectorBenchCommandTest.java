package io.symbolicate.bench.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.app.cli.UserException;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CollectorBenchCommandTest {
  @Test
  void theDefaultsAreIssue43sAttack() {
    BenchCommand.Collector c = new BenchCommand.Collector();
    new CommandLine(c).parseArgs();
    assertThat(new int[] {c.slowSenders, c.idle, c.uploadsPerScope, c.scopes, c.reporters, c.runs})
        .containsExactly(100, 100, 20, 5, 4, 5);
    // serve in a JVM of its own, as deployed (its own heap and collector)
    assertThat(c.server).isEqualTo("child");
  }

  @Test
  void anUnknownServerPlaceIsRefused() {
    BenchCommand.Collector c = new BenchCommand.Collector();
    new CommandLine(c).parseArgs("--server", "elsewhere");
    assertThatThrownBy(c::call)
        .isInstanceOf(UserException.class)
        .hasMessageContaining("--server must be child or in-process");
  }

  @Test
  void badCountsAndUnknownSettingsAreRefusedBeforeAnythingStarts() {
    BenchCommand.Collector c = new BenchCommand.Collector();
    new CommandLine(c).parseArgs("--idle", "-1");
    assertThatThrownBy(c::call).isInstanceOf(UserException.class).hasMessageContaining("--idle");
    BenchCommand.Collector d = new BenchCommand.Collector();
    new CommandLine(d).parseArgs("--set", "no.such.key=1");
    assertThatThrownBy(d::call)
        .isInstanceOf(UserException.class)
        .hasMessageContaining("no.such.key");
  }
}
