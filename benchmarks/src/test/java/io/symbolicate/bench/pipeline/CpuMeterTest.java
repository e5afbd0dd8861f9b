package io.symbolicate.bench.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CpuMeterTest {

  @Test
  void aChildBrokersCpuCountsAsBrokerAndInTheTotal() {
    AtomicLong child = new AtomicLong(5_000_000_000L);
    CpuMeter alone = new CpuMeter(() -> -1);
    CpuMeter meter = new CpuMeter(child::get);
    child.addAndGet(300_000_000L);
    Map<String, Long> withChild = meter.stop();
    Map<String, Long> without = alone.stop();

    long inProcessBroker = without.getOrDefault("broker", 0L);
    assertThat(withChild.get("broker") - inProcessBroker)
        .as("the child's 300 ms, besides any broker threads here")
        .isBetween(300_000_000L - 50_000_000L, 300_000_000L + 50_000_000L);
    assertThat(withChild.get("process"))
        .as("the total includes the child's CPU")
        .isGreaterThanOrEqualTo(300_000_000L + without.get("process") - 50_000_000L);
  }

  @Test
  void anUnknownChildReadingAddsNothing() {
    AtomicLong child = new AtomicLong(-1);
    CpuMeter meter = new CpuMeter(child::get);
    child.set(9_000_000_000L);
    Map<String, Long> spent = meter.stop();
    assertThat(spent.getOrDefault("broker", 0L))
        .as("no start reading: no delta")
        .isLessThan(1_000_000_000L);
    assertThat(spent.get("process")).isLessThan(9_000_000_000L);
  }

  @Test
  void aRestartedChildWhoseClockStartedAgainAddsNothing() {
    AtomicLong child = new AtomicLong(5_000_000_000L);
    CpuMeter meter = new CpuMeter(child::get);
    child.set(100_000_000L);
    Map<String, Long> spent = meter.stop();
    assertThat(spent.get("process")).as("never less than this process's own CPU").isNotNegative();
    assertThat(spent.getOrDefault("broker", 0L)).isNotNegative().isLessThan(1_000_000_000L);
  }

  @Test
  void threadsAreToldApartByName() {
    assertThat(CpuMeter.kind("bench-sym0-1b2c-StreamThread-1")).isEqualTo("stream");
    assertThat(CpuMeter.kind("kafka-producer-network-thread | bench-sym0-StreamThread-1-producer"))
        .isEqualTo("producers");
    assertThat(CpuMeter.kind("kafka-coordinator-heartbeat-thread | bench-sym0"))
        .as("a client, not the broker")
        .isEqualTo("other");
    assertThat(CpuMeter.kind("kafka-1-metadata-loader-event-handler")).isEqualTo("broker");
    assertThat(CpuMeter.kind("data-plane-kafka-request-handler-0")).isEqualTo("broker");
  }
}
