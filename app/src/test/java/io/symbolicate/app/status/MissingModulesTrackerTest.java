package io.symbolicate.app.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.api.status.StatusSnapshot;
import io.symbolicate.schema.MissingSymbols;
import io.symbolicate.schema.Platform;
import java.time.Instant;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The missing-modules ranking: latest count per module, tombstones, and a bounded memory. */
class MissingModulesTrackerTest {
  private static MissingSymbols missing(String module, long count) {
    return MissingSymbols.newBuilder()
        .setScope("global")
        .setPlatform(Platform.native$)
        .setModule(module)
        .setCount(count)
        .setFirstSeen(Instant.EPOCH)
        .setLastSeen(Instant.parse("2026-11-27T10:00:00Z"))
        .build();
  }

  private static MissingModulesTracker tracker() {
    Properties p = new Properties();
    p.put("bootstrap.servers", "127.0.0.1:1"); // never started: nothing connects
    return new MissingModulesTracker(p, "symbols.missing");
  }

  @Test
  void ranksByTheLatestCountAndForgetsTombstones() {
    try (MissingModulesTracker t = tracker()) {
      t.update("a", missing("a.so/1", 3));
      t.update("b", missing("b.so/2", 5));
      t.update("a", missing("a.so/1", 9)); // the running count replaces the earlier one
      t.update("c", missing("c.so/3", 1));
      t.update("c", null);
      StatusSnapshot.MissingModules top = t.top();
      assertThat(top.enabled()).isTrue();
      assertThat(top.modules())
          .extracting(StatusSnapshot.MissingModule::module)
          .containsExactly("a.so/1", "b.so/2");
      assertThat(top.modules().get(0).count()).isEqualTo(9);
      assertThat(top.modules().get(0).platform()).isEqualTo("native");
      assertThat(top.modules().get(0).lastSeen()).isEqualTo("2026-11-27T10:00:00Z");
    }
  }

  @Test
  void keepsTheMostCountedWithinItsBound() {
    try (MissingModulesTracker t = tracker()) {
      for (int i = 0; i < MissingModulesTracker.MAX_TRACKED + 500; i++) {
        t.update("m" + i, missing("m" + i, i % 1000 == 0 ? 1_000_000 + i : 1 + i % 7));
      }
      t.update("late", missing("late", 2_000_000));
      t.update("small", missing("small", 0)); // below everything kept: not taken in
      StatusSnapshot.MissingModules top = t.top();
      assertThat(top.modules()).hasSize(MissingModulesTracker.TOP);
      assertThat(top.modules().get(0).module()).isEqualTo("late");
      assertThat(top.modules().get(1).module()).isEqualTo("m10000");
      assertThat(top.modules())
          .extracting(StatusSnapshot.MissingModule::module)
          .doesNotContain("small");
    }
  }
}
