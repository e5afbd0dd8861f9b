package io.symbolicate.topology.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.symbolicate.topology.app.AppConfig;
import io.symbolicate.topology.app.SymbolicatorApp;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The loader's CPU budget: slow while the machine is busy, fast while it has idle cores (fake clocks). */
class CpuBudgetTest {
  private static final long MS = 1_000_000L;
  private final CpuBudget budget = new CpuBudget(0.1, 1.0);

  @Test
  void anIdleMachineLetsTheLoadRunUnpaced() {
    // 2 cores, the machine at 55 % of which this load's own core is 50 %: others use 0.1 core
    assertThat(budget.share(2, 0.55, 1.0)).isEqualTo(1.0);
  }

  @Test
  void busyCoresLeaveTheLoadItsBusyShare() {
    // 2 cores, others use 1.6 of them: 0.4 free is less than the reserve
    assertThat(budget.share(2, 0.85, 0.1)).isEqualTo(0.1);
    // fully busy, or more than the machine (a reading above 1)
    assertThat(budget.share(2, 1.0, 0.0)).isEqualTo(0.1);
    assertThat(budget.share(2, 1.7, 0.0)).isEqualTo(0.1);
  }

  @Test
  void inBetweenTheLoadTakesWhatIsFreeBeyondTheReserve() {
    // 4 cores, others use 2.2: 1.8 free, 1.3 beyond the reserve, capped at the idle share
    assertThat(budget.share(4, 0.6, 0.2)).isEqualTo(1.0);
    // 2 cores, others use 1.2: 0.8 free, 0.3 beyond the reserve
    assertThat(budget.share(2, 0.65, 0.1)).isCloseTo(0.3, within(1e-9));
  }

  @Test
  void anUnknownMachineLoadKeepsTheBusyShare() {
    assertThat(budget.share(2, -1, 0.0)).isEqualTo(0.1);
    assertThat(budget.share(2, Double.NaN, 0.0)).isEqualTo(0.1);
  }

  @Test
  void equalSharesAreFixed() {
    CpuBudget fixed = CpuBudget.fixed(0.25);
    assertThat(fixed.adaptive()).isFalse();
    assertThat(fixed.share(2, 0.0, 0.0)).isEqualTo(0.25);
    assertThat(fixed.share(2, 1.0, 0.0)).isEqualTo(0.25);
    assertThat(budget.adaptive()).isTrue();
  }

  @Test
  void rejectsBadShares() {
    assertThatThrownBy(() -> new CpuBudget(0, 1)).hasMessageContaining("loader.cpu.share");
    assertThatThrownBy(() -> new CpuBudget(0.5, 0.25)).hasMessageContaining("loader.cpu.share.idle");
    assertThatThrownBy(() -> new CpuBudget(0.5, Double.POSITIVE_INFINITY)).hasMessageContaining("loader.cpu.share.idle");
  }

  @Test
  void thePacerFollowsTheMachineSliceBySlice() throws Exception {
    AtomicLong cpu = new AtomicLong();
    AtomicLong wall = new AtomicLong();
    List<Long> sleeps = new ArrayList<>();
    // per slice: the load's CPU, the wall time it took, and the machine's load seen after it
    long[][] slices = {{20, 20}, {20, 100}, {20, 20}};
    double[] loads = {0.5, 0.95, 0.2};
    int[] look = {0};
    LoadPacer.ShareSource shares = budget.shares(2, () -> loads[look[0]++]);
    LoadPacer p = new LoadPacer(shares, 0.1, cpu::get, wall::get, n -> {
      sleeps.add(n);
      wall.addAndGet(n);
    });
    for (long[] slice : slices) {
      cpu.addAndGet(slice[0] * MS);
      wall.addAndGet(slice[1] * MS);
      p.pace();
    }
    // 1: others use 0 cores, unpaced. 2: the load used 0.2 of 1.9 busy cores, so others use 1.7:
    // a tenth of a core, 180 ms of pause for 20 ms of work. 3: over the 200 ms since (the pause
    // included) the load used 0.1 core of 0.4: others use 0.3, unpaced again
    assertThat(sleeps).containsExactly(180 * MS);
    assertThat(p.share()).isEqualTo(1.0);
    assertThat(p.meanShare()).isCloseTo(0.7, within(1e-9));
    assertThat(p.workMillis()).isEqualTo(60);
    assertThat(p.sleptMillis()).isEqualTo(180);
  }

  @Test
  void theLoadsOwnCpuIsNotCountedAsOthers() throws Exception {
    AtomicLong cpu = new AtomicLong();
    AtomicLong wall = new AtomicLong();
    List<Long> sleeps = new ArrayList<>();
    // a 2-core machine at 55 %: 1.1 cores, of which the load's own slice was 1.0 (20 ms in 20 ms)
    LoadPacer p = new LoadPacer(budget.shares(2, () -> 0.55), 0.1, cpu::get, wall::get, sleeps::add);
    cpu.addAndGet(20 * MS);
    wall.addAndGet(20 * MS);
    p.pace();
    assertThat(sleeps).as("others use 0.1 core: unpaced").isEmpty();
    // the same reading with a load that used little of it: others use ~1.0 core, 0.5 beyond the reserve
    cpu.addAndGet(20 * MS);
    wall.addAndGet(200 * MS);
    p.pace();
    assertThat(p.share()).isCloseTo(0.5, within(1e-9));
    assertThat(sleeps).containsExactly(20 * MS);
  }

  @Test
  void configKeysHaveTheirDefaultsAndAnIdleShareBelowTheBusyOneIsRaised() {
    CpuBudget d = SymbolicatorApp.loaderSettings(AppConfig.defaults()).cpuBudget();
    assertThat(d).isEqualTo(new CpuBudget(LoaderSettings.DEFAULT_CPU_SHARE, LoaderSettings.DEFAULT_CPU_SHARE_IDLE));
    assertThat(d).isEqualTo(LoaderSettings.defaults().cpuBudget());
    CpuBudget fixed = SymbolicatorApp.loaderSettings(AppConfig.defaults().set("loader.cpu.share", "2")).cpuBudget();
    assertThat(fixed).isEqualTo(CpuBudget.fixed(2));
    CpuBudget set = SymbolicatorApp.loaderSettings(AppConfig.defaults()
        .set("loader.cpu.share", "0.2").set("loader.cpu.share.idle", "0.5")).cpuBudget();
    assertThat(set).isEqualTo(new CpuBudget(0.2, 0.5));
    assertThatThrownBy(() -> SymbolicatorApp.loaderSettings(AppConfig.defaults().set("loader.cpu.share.idle", "0")))
        .hasMessageContaining("loader.cpu.share.idle");
  }
}
