package io.symbolicate.app.reprocess;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PacedSendsTest {
  @Test
  void thePacerSpacesEventsAtTheRate() throws Exception {
    long[] clock = {1_000_000_000L};
    List<Long> slept = new ArrayList<>();
    PacedSends.Pacer pacer =
        new PacedSends.Pacer(
            4,
            () -> clock[0],
            nanos -> {
              slept.add(nanos);
              clock[0] += nanos;
            });
    for (int i = 0; i < 5; i++) {
      pacer.acquire();
    }
    // the first at once, then one every 250 ms
    assertThat(slept).containsExactly(250_000_000L, 250_000_000L, 250_000_000L, 250_000_000L);
    // time spent elsewhere counts: 400 ms later the next one is due already, the one after it in
    // 100 ms
    clock[0] += 400_000_000L;
    slept.clear();
    pacer.acquire();
    pacer.acquire();
    assertThat(slept).containsExactly(100_000_000L);

    PacedSends.Pacer unpaced = new PacedSends.Pacer(0, () -> clock[0], nanos -> slept.add(-1L));
    slept.clear();
    for (int i = 0; i < 100; i++) {
      unpaced.acquire();
    }
    assertThat(slept).isEmpty();
  }
}
