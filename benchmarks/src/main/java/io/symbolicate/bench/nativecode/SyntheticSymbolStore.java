package io.symbolicate.bench.nativecode;

import io.symbolicate.connectors.loader.TablePublisher;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.symbolication.store.StoreMetrics;
import io.symbolicate.symbolication.store.SymbolStore;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.nativecode.SyntheticSymFile;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKeys;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.table.TablePage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The synthetic modules' tables ({@link SyntheticSymFile}) in an in-memory symbol store, keyed as
 * the loader publishes them, for the per-event benchmarks.
 */
final class SyntheticSymbolStore {
  /** What a benchmark adds to module {@code m}'s table (its sources, for one). */
  interface Extra {
    NativeTable apply(int module, NativeTable table) throws IOException;
  }

  private SyntheticSymbolStore() {}

  static SymbolStore of(int modules, int functions, Extra extra) throws IOException {
    Map<ByteBuffer, byte[]> tables = new HashMap<>();
    for (int m = 0; m < modules; m++) {
      NativeTable t =
          extra.apply(
              m,
              NativeSymbols.convert(
                  new ByteArrayInputStream(SyntheticSymFile.sym(m, functions)),
                  NativeSymbols.Options.defaults()));
      ModuleRef ref =
          new ModuleRef(
              DebugIdentifiers.GLOBAL_SCOPE,
              TableKind.NATIVE,
              DebugIdentifiers.nativeModule(
                      SyntheticSymFile.debugFile(m), SyntheticSymFile.debugId(m))
                  .key());
      List<Long> keys = new ArrayList<>();
      for (TablePage p : t.pages()) {
        keys.add(p.firstKey());
        tables.put(ByteBuffer.wrap(TableKeys.page(ref, 1, p.firstKey())), p.bytes());
      }
      tables.put(
          ByteBuffer.wrap(TableKeys.state(ref)),
          WireSerdes.moduleState().encode(TablePublisher.foundState(ref, t, 1, keys, "bench", 0)));
    }
    return new SymbolStore(
        key -> tables.get(ByteBuffer.wrap(key)),
        new PageCache(256L << 20),
        System::currentTimeMillis,
        StoreMetrics.NONE);
  }
}
