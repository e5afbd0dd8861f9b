package io.symbolicate.symbolication.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.table.HeapSized;
import org.junit.jupiter.api.Test;

class PageCacheTest {
  private record Sized(long heapBytes) implements HeapSized {}

  /**
   * Both ways into the cache weigh a page by what it says it holds: the store's path (a miss,
   * then decodeIfAbsent) weighed every page at three times its encoded size, so decoded native
   * pages, many times larger, overran page.cache.bytes.
   */
  @Test
  void aPageWeighsWhatItHoldsOnEitherPathIn() {
    byte[] encoded = new byte[1000];
    PageCache viaGet = new PageCache(1L << 30);
    viaGet.get(new PageCache.Key("m", 1, 0), encoded, b -> new Sized(500_000));
    PageCache viaMiss = new PageCache(1L << 30);
    assertThat((Object) viaMiss.getIfPresent(new PageCache.Key("m", 1, 0))).isNull();
    viaMiss.decodeIfAbsent(new PageCache.Key("m", 1, 0), encoded, b -> new Sized(500_000));
    assertThat(viaGet.weightedBytes()).isEqualTo(500_000);
    assertThat(viaMiss.weightedBytes()).isEqualTo(500_000);
    // a page that does not say: three times its encoded size and a little
    viaMiss.decodeIfAbsent(new PageCache.Key("m", 1, 1), encoded, b -> "plain");
    assertThat(viaMiss.weightedBytes()).isEqualTo(500_000 + 3_064);
  }

  @Test
  void theBoundHoldsForPagesThatSayTheyAreLarge() {
    PageCache cache = new PageCache(1_000_000);
    for (int i = 0; i < 10; i++) {
      cache.decodeIfAbsent(new PageCache.Key("m", 1, i), new byte[100], b -> new Sized(300_000));
    }
    assertThat(cache.weightedBytes()).isLessThanOrEqualTo(1_000_000);
    assertThat(cache.evictions()).isGreaterThanOrEqualTo(7);
  }
}
