package io.symbolicate.symbolication.store;

import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.PageSource;
import java.util.function.Function;

/**
 * What a platform step asks of the symbol store for one module: the scope's own table first,
 * then the global one. An event never sees another scope's private symbols because its
 * references are built from its own scope and the global scope only.
 */
public interface SymbolLookup {

  /** No store (topology tests without tables, platforms not wired yet): everything unknown. */
  SymbolLookup NONE =
      new SymbolLookup() {
        @Override
        public Resolution resolve(ModuleRef ref) {
          return Resolution.unknown(ref);
        }

        @Override
        public <P> PageSource<P> pages(Resolution r, Function<byte[], P> decoder) {
          return key -> null;
        }
      };

  Resolution resolve(ModuleRef ref);

  /** Pages of a found module. */
  <P> PageSource<P> pages(Resolution r, Function<byte[], P> decoder);

  /** The decoded table header of a found module (cached), or null. */
  default <H> H header(Resolution r, Function<byte[], H> decoder) {
    if (!r.found() || r.state().getHeader() == null) {
      return null;
    }
    java.nio.ByteBuffer b = r.state().getHeader().duplicate();
    byte[] bytes = new byte[b.remaining()];
    b.get(bytes);
    return decoder.apply(bytes);
  }

  /**
   * Where a module stands for this event: the reference that answered (scoped or global) and
   * its state, or no state at all.
   */
  record Resolution(ModuleRef ref, ModuleState state) {
    public static Resolution unknown(ModuleRef ref) {
      return new Resolution(ref, null);
    }

    public boolean found() {
      return state != null && state.getStatus() == TableStatus.found;
    }

    /** The module status to report on the output. */
    public ModuleStatus moduleStatus() {
      if (state == null) {
        return ModuleStatus.fetch_failed;
      }
      return switch (state.getStatus()) {
        case found -> ModuleStatus.found;
        case missing -> ModuleStatus.missing;
        case malformed -> ModuleStatus.malformed;
        default -> ModuleStatus.fetch_failed;
      };
    }

    public String message() {
      if (state == null) {
        return "symbols were not loaded in time";
      }
      return state.getMessage();
    }
  }
}
