package io.symbolicate.symbolication.store;

import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.PageSource;
import java.util.function.Function;

/** {@link SymbolLookup} over the materialised store: scope first, then global. */
public final class StoreSymbolLookup implements SymbolLookup {
  private final SymbolStore store;

  public StoreSymbolLookup(SymbolStore store) {
    this.store = store;
  }

  @Override
  public Resolution resolve(ModuleRef ref) {
    ModuleState own = store.state(ref);
    if (own != null && own.getStatus() == TableStatus.found || ref.isGlobal()) {
      return new Resolution(ref, own);
    }
    ModuleRef global = ref.inScope(DebugIdentifiers.GLOBAL_SCOPE);
    ModuleState g = store.state(global);
    if (g != null && g.getStatus() == TableStatus.found) {
      return new Resolution(global, g);
    }
    // neither has it: report the scope's own answer when it has one, else the global one
    return own != null ? new Resolution(ref, own) : new Resolution(global, g);
  }

  @Override
  public <H> H header(Resolution r, Function<byte[], H> decoder) {
    if (!r.found() || r.state().getHeader() == null) {
      return null;
    }
    return store.header(r.ref(), r.state(), decoder);
  }

  @Override
  public <P> PageSource<P> pages(Resolution r, Function<byte[], P> decoder) {
    if (!r.found()) {
      return key -> null;
    }
    return store.pages(r.ref(), r.state(), decoder);
  }
}
