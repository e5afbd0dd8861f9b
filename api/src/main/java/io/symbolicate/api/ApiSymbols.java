package io.symbolicate.api;

import io.symbolicate.schema.RequestReason;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.symbolication.store.TableReader;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;

/**
 * The symbols behind the API: a table store to read (same keys and format as the stream's) and
 * a way to ask for a module to be loaded. In {@code run} that is the streams app's global store
 * and {@code symbols.requests}; in {@code serve} a local on-disk store and an in-process loader.
 */
public interface ApiSymbols extends AutoCloseable {

  /** Table records, safe for concurrent reads. */
  TableReader tables();

  /** Decoded pages, shared with whatever else reads the same tables. */
  PageCache pageCache();

  /** Asks for a module to be loaded; returns at once (duplicates are coalesced). */
  void request(ModuleRef ref, RequestReason reason);

  /**
   * Whether modules of this kind can be asked for: .NET tables ({@code TableKind.DOTNET}) have no
   * platform on {@code symbols.requests} yet, so only a local loader ({@code serve}) loads them.
   */
  default boolean loads(TableKind kind) {
    return true;
  }

  /**
   * A found module answered a request: it is in use, so its table is not evicted as unused
   * ({@code cache.unused.ttl.ms}). Implementations report it at most every touch interval.
   */
  default void used(ModuleRef ref) {}

  /**
   * Bytes downloaded and milliseconds spent by this instance's last load of a module, or null.
   * A load still finishing (its table already visible) may be waited for, up to
   * {@code waitMillis}.
   */
  default Download lastDownload(ModuleRef ref, long waitMillis) {
    return null;
  }

  /** One load's cost, for Mozilla's {@code debug} block. */
  record Download(long bytes, long millis) {}

  @Override
  default void close() {}
}
