package io.symbolicate.symbols.table;

/**
 * Where lookups get decoded pages from. The CLI and tests use {@link InMemoryPageSource}; the
 * streams app backs this with a RocksDB floor lookup and a bounded cache of decoded pages.
 *
 * @param <P> the engine's decoded page type
 */
@FunctionalInterface
public interface PageSource<P> {

  /** The decoded page whose first key is the greatest one {@code <= key} (unsigned), or null. */
  P floor(long key);
}
