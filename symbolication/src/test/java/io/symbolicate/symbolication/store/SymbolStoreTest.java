package io.symbolicate.symbolication.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.PageSource;
import io.symbolicate.symbols.table.TableKeys;
import io.symbolicate.symbols.table.TableKind;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The read side's page path: the shared cache, RocksDB on a miss, and the per-module memo. */
class SymbolStoreTest {
  private static final Function<byte[], String> DECODE =
      b -> new String(b, StandardCharsets.US_ASCII);

  /** A table reader over a map, counting reads of each key. */
  static final class Tables implements TableReader {
    final Map<ByteBuffer, byte[]> values = new HashMap<>();
    final Map<ByteBuffer, Integer> reads = new HashMap<>();

    void put(byte[] key, byte[] value) {
      values.put(ByteBuffer.wrap(key), value);
    }

    int reads(byte[] key) {
      return reads.getOrDefault(ByteBuffer.wrap(key), 0);
    }

    @Override
    public byte[] get(byte[] key) {
      reads.merge(ByteBuffer.wrap(key), 1, Integer::sum);
      return values.get(ByteBuffer.wrap(key));
    }
  }

  /**
   * A found module of {@code pages} pages of 100 bytes each, at first keys 0, 0x1000, 0x2000...,
   * page {@code i} filled with the letter {@code first + i}.
   */
  private static ModuleRef module(
      Tables tables, String name, int pages, long generation, char first) {
    ModuleRef ref =
        new ModuleRef("global", TableKind.NATIVE, name + "/0123456789ABCDEF0123456789ABCDEF0");
    Long[] keys = new Long[pages];
    for (int i = 0; i < pages; i++) {
      keys[i] = 0x1000L * i;
      byte[] body = new byte[100];
      Arrays.fill(body, (byte) (first + i));
      tables.put(TableKeys.page(ref, generation, keys[i]), body);
    }
    tables.put(
        TableKeys.state(ref),
        WireSerdes.moduleState()
            .encode(
                ModuleState.newBuilder()
                    .setModule(ref.toString())
                    .setStatus(TableStatus.found)
                    .setFormatVersion(2)
                    .setGeneration(generation)
                    .setPageCount(pages)
                    .setPageKeys(List.of(keys))
                    .setUpdatedAt(Instant.EPOCH)
                    .build()));
    return ref;
  }

  private static ModuleRef module(Tables tables, String name, int pages) {
    return module(tables, name, pages, 7, 'a');
  }

  /** A store over {@code tables} and {@code cache}, as a stream task has one (its clock stands still). */
  private static SymbolStore store(Tables tables, PageCache cache) {
    return new SymbolStore(tables, cache, () -> 0L, StoreMetrics.NONE);
  }

  private static PageSource<String> pages(SymbolStore store, ModuleRef ref) {
    return store.pages(ref, store.state(ref), DECODE);
  }

  /** The lookups after which a store with no evictions seen uses its memos. */
  private static void settle(SymbolStore store, ModuleRef ref) {
    for (int i = 0; i < SymbolStore.MEMO_SETTLE_LOOKUPS; i++) {
      assertThat(pages(store, ref).floor(0x10)).isNotNull();
    }
  }

  @Test
  void aModulesPagesAreServedFromItsMemoWhileNothingLeavesTheCache() {
    Tables tables = new Tables();
    ModuleRef ref = module(tables, "libone.so", 3);
    PageCache cache = new PageCache(1 << 20);
    SymbolStore store = store(tables, cache);
    settle(store, ref);
    assertThat(cache.memoHits()).as("no memo before the store has seen the cache settle").isZero();
    long hits = cache.hits();

    for (int i = 0; i < 100; i++) {
      assertThat(pages(store, ref).floor(0x1000L + i)).startsWith("bbb");
    }
    assertThat(pages(store, ref).floor(0x2fff)).startsWith("ccc");

    // each page read from RocksDB once; every later lookup a hit, most of them from the memo,
    // one in MEMO_TOUCH_EVERY still through the cache (so its policy sees the page used)
    assertThat(tables.reads(TableKeys.page(ref, 7, 0x1000))).isEqualTo(1);
    assertThat(cache.misses()).isEqualTo(3);
    assertThat(cache.hits() - hits).isEqualTo(99);
    assertThat(cache.memoHits()).isBetween(99L - 99 / SymbolStore.MEMO_TOUCH_EVERY - 1, 98L);
    assertThat(store.memoisedModules()).isEqualTo(1);
    // the same page source while the module's state stays the same
    assertThat(pages(store, ref)).isSameAs(pages(store, ref));
  }

  /**
   * libone (one page) memoised by {@code store}, over a cache with room for two pages (each
   * weighs 64 + 3 * 100 bytes), and libother (four pages) to push it past its bound.
   */
  private record Evictable(
      Tables tables, ModuleRef one, ModuleRef other, PageCache cache, SymbolStore store) {
    static Evictable memoised() {
      Tables tables = new Tables();
      ModuleRef one = module(tables, "libone.so", 1);
      ModuleRef other = module(tables, "libother.so", 4);
      PageCache cache = new PageCache(800);
      SymbolStore store = SymbolStoreTest.store(tables, cache);
      settle(store, one);
      assertThat(pages(store, one).floor(5)).startsWith("aaa");
      assertThat(pages(store, one).floor(6)).startsWith("aaa");
      assertThat(store.memoisedModules()).isEqualTo(1);
      return new Evictable(tables, one, other, cache, store);
    }
  }

  @Test
  void anEvictionDropsEveryMemoEvenOfModulesNotLookedUpAgain() {
    Evictable e = Evictable.memoised();
    Tables tables = e.tables();
    ModuleRef one = e.one();
    ModuleRef other = e.other();
    PageCache cache = e.cache();
    SymbolStore store = e.store();
    long memo = cache.memoHits();
    assertThat(memo).isPositive();

    // another module's pages push the cache past its bound: something is evicted
    long stamp = cache.removalStamp();
    for (int i = 0; i < 4; i++) {
      assertThat(pages(store, other).floor(0x1000L * i))
          .startsWith(String.valueOf((char) ('a' + i)).repeat(3));
    }
    assertThat(cache.removalStamp()).isGreaterThan(stamp);
    assertThat(cache.estimatedSize()).isLessThanOrEqualTo(2);
    // libone's memo went at the first lookup after the eviction, without libone being looked up
    assertThat(store.memoisedModules()).isZero();

    // and libone's next lookups come from the cache or RocksDB, not from a memo
    int before = tables.reads(TableKeys.page(one, 7, 0));
    assertThat(pages(store, one).floor(7)).startsWith("aaa");
    assertThat(cache.memoHits()).isEqualTo(memo);
    assertThat(tables.reads(TableKeys.page(one, 7, 0)) - before).isBetween(0, 1);
  }

  @Test
  void anIdleTaskLetsGoOfItsMemosWhenItsPunctuatorAsks() {
    Evictable e = Evictable.memoised();
    SymbolStore idle = e.store();

    // another task evicts; the idle one looks nothing up, only its punctuator runs
    SymbolStore busy = store(e.tables(), e.cache());
    for (int i = 0; i < 4; i++) {
      pages(busy, e.other()).floor(0x1000L * i);
    }
    assertThat(idle.memoisedModules()).isEqualTo(1);
    idle.dropStaleMemos();
    assertThat(idle.memoisedModules()).isZero();
  }

  @Test
  void aNewGenerationIsReadFromItsOwnPagesNotTheOldMemo() {
    Tables tables = new Tables();
    ModuleRef ref = module(tables, "libone.so", 2, 7, 'a');
    PageCache cache = new PageCache(1 << 20);
    AtomicLong clock = new AtomicLong();
    SymbolStore store = new SymbolStore(tables, cache, clock::get, StoreMetrics.NONE);
    settle(store, ref);
    assertThat(pages(store, ref).floor(0x1001)).startsWith("bbb");
    assertThat(pages(store, ref).floor(0x1002)).startsWith("bbb");
    assertThat(store.memoisedModules()).isEqualTo(1);

    // the loader publishes generation 8 with other contents; the task re-reads the state
    module(tables, "libone.so", 2, 8, 'x');
    clock.addAndGet(1000);
    assertThat(pages(store, ref).floor(0x1001)).startsWith("yyy");
    assertThat(pages(store, ref).floor(0x10)).startsWith("xxx");
    // the old state's memo is gone with it; the new one has its own
    assertThat(store.memoisedModules()).isEqualTo(1);
  }

  /**
   * A found state reused within STATE_REUSE_MS whose pages a rebuild already deleted: that lookup
   * finds no page, and the next one reads the state again instead of reusing the stale one (every
   * event in the window came out with the module found and its frames without symbols).
   */
  @Test
  void aMissingPageOfAReusedStateMakesTheNextLookupReadTheStateAgain() {
    Tables tables = new Tables();
    ModuleRef ref = module(tables, "libone.so", 2, 7, 'a');
    PageCache cache = new PageCache(1 << 20);
    SymbolStore store = store(tables, cache); // its clock stands still: the state is reused
    assertThat(pages(store, ref).floor(0x10)).startsWith("aaa");
    // the rebuild: generation 8 and the old pages' tombstones, all within the reuse window
    module(tables, "libone.so", 2, 8, 'x');
    tables.values.remove(ByteBuffer.wrap(TableKeys.page(ref, 7, 0x1000)));
    assertThat(pages(store, ref).floor(0x1001)).as("the stale state's page is gone").isNull();
    assertThat(pages(store, ref).floor(0x1001)).startsWith("yyy");
  }

  @Test
  void aStateReadElsewhereIsServedWithoutAMemo() {
    Tables tables = new Tables();
    ModuleRef ref = module(tables, "libone.so", 2);
    PageCache cache = new PageCache(1 << 20);
    SymbolStore reader = store(tables, cache);
    SymbolStore other = store(tables, cache);
    ModuleState state = other.state(ref);

    for (int i = 0; i < SymbolStore.MEMO_SETTLE_LOOKUPS + 5; i++) {
      assertThat(reader.pages(ref, state, DECODE).floor(0x1001)).startsWith("bbb");
    }
    assertThat(cache.misses()).isEqualTo(1);
    assertThat(cache.memoHits()).isZero();
    assertThat(reader.memoisedModules()).isZero();
  }
}
