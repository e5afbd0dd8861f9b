package io.symbolicate.symbols.nativecode;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class IdStringsTest {

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String read(IdStrings t, int id) {
    byte[] dst = new byte[t.length(id)];
    t.read(id, dst);
    return new String(dst, StandardCharsets.UTF_8);
  }

  @Test
  void keepsTheFirstNameOfAnIdAsBreakpadDoes() {
    try (IdStrings t = new IdStrings()) {
      byte[] buf = bytes("xx/src/a.cc yy");
      assertThat(t.putIfAbsent(7, buf, 3, 8)).isTrue();
      assertThat(t.putIfAbsent(7, bytes("other.cc"), 0, 8)).isFalse();
      assertThat(read(t, 7)).isEqualTo("src/a.cc");
      assertThat(t.length(8)).isEqualTo(-1);
      assertThat(t.size()).isEqualTo(1);
    }
  }

  @Test
  void emptyNamesAndExtremeIdsAreKeptApart() {
    try (IdStrings t = new IdStrings()) {
      t.putIfAbsent(0, new byte[0], 0, 0);
      t.putIfAbsent(Integer.MAX_VALUE, bytes("max"), 0, 3);
      t.putIfAbsent(Integer.MIN_VALUE, bytes("min"), 0, 3);
      t.putIfAbsent(-1, bytes("minus one"), 0, 9);
      assertThat(t.length(0)).isZero();
      assertThat(read(t, Integer.MAX_VALUE)).isEqualTo("max");
      assertThat(read(t, Integer.MIN_VALUE)).isEqualTo("min");
      assertThat(read(t, -1)).isEqualTo("minus one");
      assertThat(t.length(1)).isEqualTo(-1);
    }
  }

  @Test
  void answersAsAMapOverManyIdsAndGrowths() {
    Map<Integer, String> expected = new HashMap<>();
    Random r = new Random(18);
    try (IdStrings t = new IdStrings()) {
      for (int i = 0; i < 100_000; i++) {
        // dense ids as dump_syms writes them, then sparse and colliding ones
        int id = i < 50_000 ? i : r.nextInt(1 << 20) << 11;
        String name = "ns::f" + i + "<" + "T".repeat(i % 300) + ">";
        boolean isNew = !expected.containsKey(id);
        assertThat(t.putIfAbsent(id, bytes(name), 0, bytes(name).length)).isEqualTo(isNew);
        expected.putIfAbsent(id, name);
      }
      assertThat(t.size()).isEqualTo(expected.size());
      for (Map.Entry<Integer, String> e : expected.entrySet()) {
        assertThat(read(t, e.getKey())).isEqualTo(e.getValue());
      }
      assertThat(t.length(50_001 << 11 | 1)).isEqualTo(-1);
    }
  }

  @Test
  void idsChosenToShareSlotsStillTakeAFewProbesEach() {
    // strided and high-bit-only ids (what defeats a plain multiplicative or identity hash) and
    // ids that collide after a 16-bit fold: the seeded murmur finaliser spreads them all
    int[][] patterns = new int[3][50_000];
    for (int i = 0; i < 50_000; i++) {
      patterns[0][i] = i << 16;
      patterns[1][i] = i * 1024;
      patterns[2][i] = (i << 16) | i; // h ^ h >>> 16 is 0 for every one of these
    }
    for (int[] ids : patterns) {
      try (IdStrings t = new IdStrings()) {
        for (int id : ids) {
          t.putIfAbsent(id, new byte[] {1}, 0, 1);
        }
        // linear probing at load <= 1/2 averages under 1.5 extra probes per insert and rehash
        assertThat(t.extraProbes()).isLessThan(5L * ids.length);
        assertThat(t.size()).isEqualTo(ids.length);
      }
    }
  }

  @Test
  void idsStoredBeforeTheDenseArrayReachesThemAreStillFound() {
    // descending ids: each is stored while the dense array is still too short for it, so the
    // array must pick them up from the hash slots when it grows
    for (int[] order : new int[][] {descending(20_000), strided(20_000, 2), strided(20_000, 3)}) {
      try (IdStrings t = new IdStrings()) {
        for (int id : order) {
          t.putIfAbsent(id, bytes("f" + id), 0, bytes("f" + id).length);
        }
        for (int id : order) {
          assertThat(read(t, id)).isEqualTo("f" + id);
        }
        assertThat(t.length(order.length * 3 + 1)).isEqualTo(-1);
        // the dense array follows the count, not the ids: at most 4 ints a name more
        assertThat(t.heapBytes()).isLessThan(64L * order.length + 64 * 1024);
      }
    }
  }

  private static int[] descending(int n) {
    int[] ids = new int[n];
    for (int i = 0; i < n; i++) {
      ids[i] = n - 1 - i;
    }
    return ids;
  }

  private static int[] strided(int n, int step) {
    int[] ids = new int[n];
    for (int i = 0; i < n; i++) {
      ids[i] = i * step;
    }
    return ids;
  }

  @Test
  void afterCloseOnlyTheCountAnswers() {
    IdStrings t = new IdStrings();
    t.putIfAbsent(3, bytes("a.cc"), 0, 4);
    t.close();
    assertThat(t.size()).isEqualTo(1);
    assertThat(t.heldBytes()).isZero();
    Assertions.assertThatThrownBy(() -> t.length(3))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("released");
    Assertions.assertThatThrownBy(() -> t.putIfAbsent(4, bytes("b.cc"), 0, 4))
        .isInstanceOf(IllegalStateException.class);
  }
}
