package io.symbolicate.api.minidump;

import io.symbolicate.symbolication.store.SourceContextLookup;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.minidump.walk.CodeModule;
import io.symbolicate.symbols.minidump.walk.ModuleSymbols;
import io.symbolicate.symbols.minidump.walk.SymbolDirectory;
import io.symbolicate.symbols.minidump.walk.SymbolSupplier;
import io.symbolicate.symbols.nativecode.NativeHeader;
import io.symbolicate.symbols.nativecode.NativePage;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The walker's symbols from the API's table store (the scope's own table first, then the
 * global one): a found module's native table gives its CFI, STACK WIN records and functions. It
 * remembers the modules the walk asked for that the store has no answer for yet, so that the
 * route can request them, wait, and walk again.
 */
final class StoreSymbolSupplier implements SymbolSupplier {
  private final SymbolLookup lookup;
  private final String scope;
  private final Set<ModuleRef> asked = new LinkedHashSet<>();
  private final Set<ModuleRef> unanswered = new LinkedHashSet<>();
  private final Map<CodeModule, String> arches = new HashMap<>();

  StoreSymbolSupplier(SymbolLookup lookup, String scope) {
    this.lookup = lookup;
    this.scope = scope;
  }

  /** The store's reference of a module: {@code debug_file/debug_id}, or null without valid ids. */
  static ModuleRef ref(CodeModule m, String scope) {
    if (m.unloaded() || m.debugId().isEmpty() || m.debugFile().isEmpty()) {
      return null;
    }
    try {
      return new ModuleRef(
          scope,
          TableKind.NATIVE,
          DebugIdentifiers.nativeModule(CodeModule.basename(m.debugFile()), m.debugId()).key());
    } catch (DebugIdentifiers.InvalidIdentifierException e) {
      return null;
    }
  }

  @Override
  public ModuleSymbols find(CodeModule module) {
    ModuleRef ref = ref(module, scope);
    if (ref == null) {
      return null;
    }
    asked.add(ref);
    SymbolLookup.Resolution r = lookup.resolve(ref);
    if (r.state() == null) {
      unanswered.add(ref);
      return null;
    }
    if (!r.found()) {
      return null; // missing or malformed: answered, the walk goes on without
    }
    NativeHeader header = lookup.header(r, NativeHeader::decode);
    if (header == null) {
      return null;
    }
    if (header.arch() != null && !header.arch().isEmpty()) {
      arches.put(module, header.arch());
    }
    return SymbolDirectory.of(
        new NativeSymbolizer(
            header, SourceContextLookup.tablePages(lookup, r, b -> NativePage.decode(b, false))));
  }

  /** The CPU of each module found, as its symbol file names it (Symbolicator's module {@code arch}). */
  Map<CodeModule, String> arches() {
    return arches;
  }

  /** Every module the walk asked for, in the order asked. */
  Set<ModuleRef> asked() {
    return asked;
  }

  /** Modules the walk asked for that the store knew nothing of, in the order asked. */
  Set<ModuleRef> unanswered() {
    return unanswered;
  }
}
