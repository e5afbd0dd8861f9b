package io.symbolicate.symbolication.store;

import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.TableStatus;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.table.ModuleRef;

/**
 * When a scoped module may be answered: the rule the stream's parking and the HTTP API share.
 *
 * <p>A tenant's own copy always wins over the global one, so the global copy may answer only
 * once the scope's own answer has settled (negative): a global table already in the store is not
 * enough, or a tenant that uploaded its own copy would get the global one whenever that one
 * happened to be cached first. Both verdicts are taken on every pass, so that both are requested
 * at once rather than one after the other.
 */
public final class ScopeFirst {
  /** Whether one reference's answer is settled; may request it as a side effect. */
  @FunctionalInterface
  public interface Verdict {
    boolean ready(ModuleRef ref, ModuleState state);
  }

  private ScopeFirst() {}

  public static boolean ready(SymbolStore store, ModuleRef ref, Verdict verdict) {
    ModuleState own = store.state(ref);
    boolean ownReady = verdict.ready(ref, own);
    if (ref.isGlobal() || own != null && own.getStatus() == TableStatus.found) {
      return ownReady;
    }
    ModuleRef global = ref.inScope(DebugIdentifiers.GLOBAL_SCOPE);
    boolean globalReady = verdict.ready(global, store.state(global));
    return ownReady && globalReady;
  }
}
