package io.symbolicate.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.bench.chaos.ChaosRun.Action;
import io.symbolicate.bench.chaos.ChaosRun.Step;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The short chaos test of CI (the full one is {@code ./symbolicator bench chaos}): a 3-node
 * KRaft cluster, two instances and a loader as child processes, 3,000 events at 100 a second.
 * While they flow one instance is killed with SIGKILL, the broker coordinating the app's group
 * is stopped and restarted, and S3 hangs for 8 s while events need modules nobody has loaded.
 * Every event comes out exactly once for a read_committed reader, and the DLQ holds each
 * injected bad event once and nothing else.
 */
class ChaosIT {
  @TempDir Path dir;

  @Test
  void everyEventOnceThroughAKilledInstanceAStoppedBrokerAndAHungS3() throws Exception {
    List<Step> plan =
        List.of(
            new Step(5, Action.KILL_INSTANCE),
            new Step(9, Action.STOP_BROKER),
            new Step(15, Action.RESTART_BROKER),
            new Step(17, Action.PAUSE_S3),
            new Step(25, Action.RESUME_S3));
    ChaosRun.Report r =
        new ChaosRun(new ChaosRun.Options(3000, 100, 4, 2, 5, plan, dir, false), System.out).run();

    // broker steps run in the background and may start late (after the stop ended): any order
    assertThat(r.faults())
        .extracting(ChaosRun.Fault::action)
        .containsExactlyInAnyOrder(
            Action.KILL_INSTANCE,
            Action.STOP_BROKER,
            Action.RESTART_BROKER,
            Action.PAUSE_S3,
            Action.RESUME_S3);
    assertThat(r.replicationFactor()).isEqualTo(3);
    assertThat(r.minInsyncReplicas()).isEqualTo("2");
    assertThat(r.unacked()).as("sends the cluster did not acknowledge").isZero();
    assertThat(r.sent()).isEqualTo(3000);
    assertThat(r.freshEvents()).as("events that needed S3 while it hung").isPositive();
    assertThat(r.missing()).as("events that never came out").isEmpty();
    assertThat(r.duplicates()).as("events that came out more than once").isEmpty();
    assertThat(r.unexpectedDeadLetters()).as("dead letters of good events").isEmpty();
    assertThat(r.badSent()).isEqualTo(5);
    assertThat(r.badInDlq()).hasSize(5).allSatisfy((k, n) -> assertThat(n).as(k).isEqualTo(1));
    assertThat(r.stalls()).hasSize(4).allSatisfy(s -> assertThat(s.events()).isPositive());
    assertThat(r.passed()).isTrue();
  }
}
