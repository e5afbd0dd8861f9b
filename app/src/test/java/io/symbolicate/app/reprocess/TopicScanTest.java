package io.symbolicate.app.reprocess;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TopicScanTest {
  @Test
  void theLatestOutputsKeepTheLastPositionPerEventThroughGrowth() {
    TopicScan.LatestOutputs f = new TopicScan.LatestOutputs();
    for (long k = 0; k < 10_000; k++) {
      if (k % 3 != 0) {
        f.matched(TopicScan.idHash("e-" + k), (int) (k % 4), k);
      } else {
        f.cleared(TopicScan.idHash("e-" + k));
      }
    }
    // a later output: even events cleared, those divisible by 5 matched again further on
    for (long k = 0; k < 10_000; k += 2) {
      f.cleared(TopicScan.idHash("e-" + k));
    }
    for (long k = 0; k < 10_000; k += 5) {
      f.matched(TopicScan.idHash("e-" + k), (int) (k % 4), 20_000 + k);
    }
    Map<Integer, List<Long>> expected = new HashMap<>();
    long candidates = 0;
    for (long k = 0; k < 10_000; k++) {
      boolean want = k % 5 == 0 || k % 2 != 0 && k % 3 != 0;
      assertThat(f.isCandidate(TopicScan.idHash("e-" + k))).as("e-%d", k).isEqualTo(want);
      assertThat(f.contains(TopicScan.idHash("e-" + k))).isTrue();
      if (want) {
        candidates++;
        expected
            .computeIfAbsent((int) (k % 4), p -> new ArrayList<>())
            .add(k % 5 == 0 ? 20_000 + k : k);
      }
    }
    assertThat(f.candidates()).isEqualTo(candidates);
    assertThat(f.contains(TopicScan.idHash("never"))).isFalse();
    Map<Integer, long[]> byPartition = f.offsetsByPartition();
    assertThat(byPartition).containsOnlyKeys(expected.keySet());
    expected.forEach(
        (p, offsets) ->
            assertThat(byPartition.get(p))
                .containsExactly(offsets.stream().sorted().mapToLong(Long::longValue).toArray()));
  }
}
