package io.symbolicate.connectors.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The loader's CPU budget: slow while the process keeps the cores busy, fast while they are free (fake clocks). */
class CpuBudgetTest {
  private static final long MS = 1_000_000L;
  private final CpuBudget budget = new CpuBudget(0.1, 1.0);

  @Test
  void freeCoresLetTheLoadRunUnpaced() {
    // 2 cores, the other threads use 0.1: 1.4 free beyond the reserve, capped at one core
    assertThat(budget.share(2, 0.1)).isEqualTo(1.0);
  }

  @Test
  void busyCoresLeaveTheLoadItsBusyShare() {
    // 2 cores, others use 1.6: 0.4 free is less than the reserve
    assertThat(budget.share(2, 1.6)).isEqualTo(0.1);
    assertThat(budget.share(2, 2.0)).isEqualTo(0.1);
    assertThat(budget.share(2, 3.5)).isEqualTo(0.1);
  }

  @Test
  void inBetweenTheLoadTakesWhatIsFreeBeyondTheReserve() {
    // 2 cores, others use 1.2: 0.8 free, 0.3 beyond the reserve
    assertThat(budget.share(2, 1.2)).isCloseTo(0.3, within(1e-9));
    // 8 cores, others use 4: one thread never takes more than a core, whatever the idle share says
    assertThat(new CpuBudget(0.1, 4).share(8, 4)).isEqualTo(1.0);
  }

  @Test
  void anUnknownUseKeepsTheBusyShare() {
    assertThat(budget.share(2, Double.NaN)).isEqualTo(0.1);
    assertThat(budget.share(2, -1)).isEqualTo(0.1);
  }

  @Test
  void equalSharesAreFixedAndAFullBusyShareIsUnpaced() {
    CpuBudget fixed = CpuBudget.fixed(0.25);
    assertThat(fixed.adaptive()).isFalse();
    assertThat(fixed.share(2, 0.0)).isEqualTo(0.25);
    assertThat(fixed.share(2, 2.0)).isEqualTo(0.25);
    assertThat(budget.adaptive()).isTrue();
    assertThat(new CpuBudget(1, 2).adaptive()).isFalse();
  }

  @Test
  void rejectsBadShares() {
    assertThatThrownBy(() -> new CpuBudget(0, 1))
        .hasMessageContaining("loader.cpu.share must be > 0");
    assertThatThrownBy(() -> new CpuBudget(0.5, 0.25))
        .hasMessageContaining("loader.cpu.share.idle must be");
    assertThatThrownBy(() -> new CpuBudget(0.5, Double.POSITIVE_INFINITY))
        .hasMessageContaining("loader.cpu.share.idle must be");
  }

  @Test
  void theSamplerCountsTheProcessLessTheLoadsOverWindowsOfItsOwn() {
    Clocks c = new Clocks();
    CpuSampler s = c.processOnlySampler();
    assertThat(s.othersCores()).as("no window yet").isNaN();
    // 250 ms in which the process used 400 ms of CPU, 100 of them a load's
    c.window(250, 400, 0);
    s.loadCpu(100 * MS);
    assertThat(s.othersCores()).isCloseTo(1.2, within(1e-9));
    // a second reader soon after gets the same window's answer, not a window of a few ms
    c.window(5, 10, 0);
    assertThat(s.othersCores()).isCloseTo(1.2, within(1e-9));
    // the next window starts where the last one ended
    c.window(195, 30, 0);
    assertThat(s.othersCores()).isCloseTo(0.2, within(1e-9));
  }

  @Test
  void aStaleWindowIsUnknownAndStartsAFreshOne() {
    Clocks c = new Clocks();
    CpuSampler s = c.processOnlySampler();
    // minutes without a load, the process mostly idle: that average says nothing about now
    c.window(120_000, 1_000, 0);
    assertThat(s.othersCores()).isNaN();
    assertThat(budget.share(2, s.othersCores())).as("unknown: the busy share").isEqualTo(0.1);
    // the fresh window: 1.5 cores busy over 200 ms
    c.window(200, 300, 0);
    assertThat(s.othersCores()).isCloseTo(1.5, within(1e-9));
  }

  @Test
  void otherProcessesOnTheMachineCountAsBusyToo() {
    Clocks c = new Clocks();
    CpuSampler s = c.sampler(2);
    assertThat(s.freeCores(2)).as("no window yet").isNaN();
    // 200 ms: this process used 0.3 core (0.1 of it a load's), a broker beside it 1.0 core
    c.window(200, 60, 6 + 20); // ticks of 10 ms: the process's 60 ms and the broker's 200 ms
    s.loadCpu(20 * MS);
    assertThat(s.othersCores()).isCloseTo(0.2, within(1e-9));
    assertThat(s.machineOthersCores()).as("everything but the load").isCloseTo(1.2, within(1e-9));
    assertThat(s.freeCores(2))
        .as("the machine leaves less than the process would")
        .isCloseTo(0.8, within(1e-9));
    assertThat(budget.shareOfFree(s.freeCores(2)))
        .as("0.8 free less the 0.5 reserve")
        .isCloseTo(0.3, within(1e-9));
    LoadPacer.ShareSource shares = budget.shares(2, s);
    assertThat(shares.share(0)).as("what the pacers get").isCloseTo(0.3, within(1e-9));
    // the broker goes quiet: 1.75 cores free by the machine, 1.8 by the process
    c.window(200, 40, 5);
    assertThat(s.freeCores(2)).isCloseTo(1.75, within(1e-9));
    assertThat(budget.shareOfFree(s.freeCores(2))).isEqualTo(1.0);
  }

  @Test
  void underAQuotaOfFewerCoresThanTheMachineOnlyTheProcessCounts() {
    Clocks c = new Clocks();
    CpuSampler s = c.sampler(8);
    // a container allowed 2 of the host's 8 cores; the host's other tenants use 7.5 cores
    c.window(200, 40, 4 + 150);
    assertThat(s.machineOthersCores()).isCloseTo(7.7, within(1e-9));
    assertThat(s.freeCores(2))
        .as("the neighbours are the scheduler's business")
        .isCloseTo(1.8, within(1e-9));
    assertThat(s.freeCores(8))
        .as("with every core of the host, they count")
        .isCloseTo(0.3, within(1e-9));
  }

  @Test
  void aStaleWindowResetsTheMachineViewToo() {
    Clocks c = new Clocks();
    CpuSampler s = c.sampler(2);
    c.window(60_000, 100, 3000);
    assertThat(s.machineOthersCores()).isNaN();
    assertThat(s.freeCores(2)).isNaN();
    c.window(200, 20, 30);
    assertThat(s.machineOthersCores()).isCloseTo(1.5, within(1e-9));
    assertThat(s.freeCores(2)).isCloseTo(0.5, within(1e-9));
  }

  @Test
  void anUnknownMachineLeavesTheProcessView() {
    Clocks c = new Clocks();
    CpuSampler s = c.processOnlySampler();
    c.window(200, 100, 0);
    assertThat(s.machineOthersCores()).isNaN();
    assertThat(s.freeCores(2)).isCloseTo(1.5, within(1e-9));
  }

  @Test
  void readsTheMachinesBusyTimeFromProcStat(@TempDir Path dir) throws Exception {
    Path stat = dir.resolve("stat");
    Files.writeString(
        stat,
        """
        cpu  100 5 50 9000 40 3 2 7 0 0
        cpu0 50 2 25 4500 20 1 1 3 0 0
        cpu1 50 3 25 4500 20 2 1 4 0 0
        intr 12345
        """);
    // user + nice + system + irq + softirq + steal ticks; idle and iowait are not busy
    assertThat(CpuSampler.machineBusyTicks(stat)).isEqualTo(100 + 5 + 50 + 3 + 2 + 7);
    assertThat(CpuSampler.machineCores(stat)).isEqualTo(2);
    assertThat(CpuSampler.machineBusyTicks(dir.resolve("absent"))).isEqualTo(-1);
    assertThat(CpuSampler.machineCores(dir.resolve("absent"))).isEqualTo(-1);
    assertThat(CpuSampler.parseBusyTicks("cpu  1 2")).as("truncated").isEqualTo(-1);
    assertThat(CpuSampler.parseBusyTicks("intr 1 2 3 4 5 6 7 8")).isEqualTo(-1);
    if (Files.isReadable(Path.of("/proc/stat"))) {
      assertThat(CpuSampler.machineBusyTicks(Path.of("/proc/stat"))).isPositive();
      assertThat(CpuSampler.machineCores(Path.of("/proc/stat"))).isPositive();
    }
  }

  @Test
  void anUnknownProcessCpuTimeIsUnknown() {
    AtomicLong wall = new AtomicLong();
    CpuSampler s = new CpuSampler(() -> -1, () -> -1, -1, wall::get);
    wall.addAndGet(300 * MS);
    assertThat(s.othersCores()).isNaN();
    assertThat(budget.share(2, s.othersCores())).isEqualTo(0.1);
  }

  @Test
  void thePacerFollowsTheProcessSliceBySlice() throws Exception {
    AtomicLong cpu = new AtomicLong();
    Clocks c = new Clocks();
    List<Long> sleeps = new ArrayList<>();
    CpuSampler sampler = c.processOnlySampler();
    LoadPacer p =
        new LoadPacer(
            budget.shares(2, sampler),
            0.1,
            cpu::get,
            n -> {
              sleeps.add(n);
              c.wall.addAndGet(n);
            });
    // slice 1: 20 ms of the load's CPU in a 200 ms window in which the process used 60 ms in all:
    // others used 0.2 core, so the load is unpaced
    cpu.addAndGet(20 * MS);
    c.window(200, 60, 0);
    p.pace();
    assertThat(sleeps).isEmpty();
    // slice 2: the stream threads took the cores (340 ms of the others' CPU in 200 ms: 1.7 cores)
    cpu.addAndGet(20 * MS);
    c.window(200, 360, 0);
    p.pace();
    assertThat(sleeps)
        .as("a tenth of a core: 180 ms of pause for 20 ms of work")
        .containsExactly(180 * MS);
    assertThat(p.share()).isEqualTo(0.1);
    // the load's own CPU is never counted as the others' (only 20 ms of the process's 20 here)
    cpu.addAndGet(20 * MS);
    c.window(20, 20, 0);
    p.pace();
    assertThat(p.share()).isEqualTo(1.0);
    assertThat(sleeps).hasSize(1);
    assertThat(p.workMillis()).isEqualTo(60);
    assertThat(p.sleptMillis()).isEqualTo(180);
    assertThat(p.effectiveShare())
        .as("60 ms of CPU against 180 ms of pause")
        .isCloseTo(0.25, within(1e-9));
  }

  @Test
  void aShareSourceThatAnswersNonsenseFallsBackToTheInitialShare() throws Exception {
    AtomicLong cpu = new AtomicLong();
    List<Long> sleeps = new ArrayList<>();
    for (double bad : new double[] {0, -1, Double.NaN}) {
      sleeps.clear();
      LoadPacer p = new LoadPacer(used -> bad, 0.5, cpu::get, sleeps::add);
      cpu.addAndGet(20 * MS);
      p.pace();
      assertThat(sleeps).as("share %s", bad).containsExactly(20 * MS);
    }
  }

  @Test
  void finishCountsTheLastPartialSliceOnce() throws Exception {
    AtomicLong cpu = new AtomicLong();
    LoadPacer p = new LoadPacer(0.5, cpu::get, n -> {});
    cpu.addAndGet(25 * MS);
    p.pace();
    cpu.addAndGet(7 * MS);
    p.pace();
    assertThat(p.workMillis()).as("7 ms is less than a slice").isEqualTo(25);
    assertThat(p.finish().workMillis()).isEqualTo(32);
    cpu.addAndGet(7 * MS);
    assertThat(p.finish().workMillis()).isEqualTo(32);
  }

  /** The clocks a sampler reads: the process's CPU, the machine's busy ticks and the wall. */
  private static final class Clocks {
    final AtomicLong process = new AtomicLong();
    final AtomicLong machineTicks = new AtomicLong();
    final AtomicLong wall = new AtomicLong();

    /** A window of {@code wallMs}, in which the process used {@code processMs} and the machine {@code ticks}. */
    void window(long wallMs, long processMs, long ticks) {
      wall.addAndGet(wallMs * MS);
      process.addAndGet(processMs * MS);
      machineTicks.addAndGet(ticks);
    }

    /** A sampler that cannot read the machine's use (the process view alone). */
    CpuSampler processOnlySampler() {
      return new CpuSampler(process::get, () -> -1, -1, wall::get);
    }

    CpuSampler sampler(int machineCores) {
      return new CpuSampler(process::get, machineTicks::get, machineCores, wall::get);
    }
  }
}
