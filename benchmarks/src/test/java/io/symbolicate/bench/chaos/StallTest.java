package io.symbolicate.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class StallTest {
  @Test
  void theLongestGapBetweenArrivalsInsideTheWindow() {
    Stall s = Stall.longest(List.of(5L, 100L, 110L, 400L, 420L, 2000L), 100, 1000);
    assertThat(s).isEqualTo(new Stall(580, 420)); // 420 until the window's end
    assertThat(Stall.longest(List.of(5L, 100L, 110L, 400L, 420L), 100, 500))
        .isEqualTo(new Stall(290, 110));
  }

  @Test
  void theWindowsStartCountsAsAnArrival() {
    assertThat(Stall.longest(List.of(700L, 710L), 100, 720)).isEqualTo(new Stall(600, 100));
  }

  @Test
  void noArrivalIsTheWholeWindow() {
    assertThat(Stall.longest(List.of(), 100, 900)).isEqualTo(new Stall(800, 100));
  }

  @Test
  void theFullPlanSpreadsTheFaultsOverTheFlow() {
    List<ChaosRun.Step> plan = ChaosRun.fullPlan(30_000, 400, 20);
    assertThat(plan)
        .extracting(ChaosRun.Step::action)
        .containsExactly(
            ChaosRun.Action.KILL_INSTANCE,
            ChaosRun.Action.STOP_BROKER,
            ChaosRun.Action.START_INSTANCE,
            ChaosRun.Action.RESTART_BROKER,
            ChaosRun.Action.PAUSE_S3,
            ChaosRun.Action.RESUME_S3);
    assertThat(plan.get(0).at()).isEqualTo(75.0 / 8);
    assertThat(plan.get(5).at() - plan.get(4).at()).isEqualTo(20);
    assertThat(ChaosRun.partitionOf("c-3-1234")).isEqualTo(3);
    assertThat(ChaosRun.partitionOf("bad-1")).isEqualTo(-1);
  }
}
