package io.symbolicate.symbolication.store;

import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.PageSource;
import io.symbolicate.symbols.table.TablePage;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A {@link SymbolLookup} over converted tables held in memory, with the store's rules (the
 * scope's own module first, then the global one; no state = not loaded in time), so the HTTP
 * shapes are tested against the real platform steps without a broker.
 */
public final class TablesLookup implements SymbolLookup {
  private final Map<ModuleRef, ModuleState> states = new HashMap<>();
  private final Map<ModuleRef, CompactTable> tables = new HashMap<>();

  public TablesLookup found(ModuleRef ref, CompactTable table) {
    states.put(
        ref,
        ModuleState.newBuilder()
            .setModule(ref.toString())
            .setStatus(TableStatus.found)
            .setFormatVersion(table.formatVersion())
            .setGeneration(1)
            .setHeader(ByteBuffer.wrap(table.header()))
            .setPageCount(table.pages().size())
            .setPageKeys(table.pages().stream().map(TablePage::firstKey).toList())
            .setTableBytes(table.encodedSize())
            .setSource("test")
            .setMessage(null)
            .setUpdatedAt(Instant.EPOCH)
            .build());
    tables.put(ref, table);
    return this;
  }

  public TablesLookup negative(ModuleRef ref, TableStatus status, String message) {
    states.put(
        ref,
        ModuleState.newBuilder()
            .setModule(ref.toString())
            .setStatus(status)
            .setFormatVersion(1)
            .setGeneration(0)
            .setHeader(null)
            .setPageCount(0)
            .setPageKeys(List.of())
            .setTableBytes(0)
            .setSource("test")
            .setMessage(message)
            .setUpdatedAt(Instant.EPOCH)
            .build());
    return this;
  }

  @Override
  public Resolution resolve(ModuleRef ref) {
    ModuleState own = states.get(ref);
    if (own != null && own.getStatus() == TableStatus.found || ref.isGlobal()) {
      return new Resolution(ref, own);
    }
    ModuleRef global = ref.inScope(DebugIdentifiers.GLOBAL_SCOPE);
    ModuleState g = states.get(global);
    return g != null ? new Resolution(global, g) : new Resolution(ref, own);
  }

  @Override
  public <P> PageSource<P> pages(Resolution r, Function<byte[], P> decoder) {
    if (!r.found()) {
      return key -> null;
    }
    // decoded on first use, as the store does: a table's pages of another kind (its sources)
    // are only ever decoded by their own decoder
    List<TablePage> pages = tables.get(r.ref()).pages();
    long[] keys = pages.stream().mapToLong(TablePage::firstKey).toArray();
    Map<Integer, P> decoded = new HashMap<>();
    return key -> {
      int i = SymbolStore.floorIndex(keys, key);
      if (i < 0) {
        return null;
      }
      int at = i;
      return decoded.computeIfAbsent(at, x -> decoder.apply(pages.get(at).bytes()));
    };
  }
}
