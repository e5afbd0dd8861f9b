package io.symbolicate.symbolication.minidump;

import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.symbolication.store.SourceContextLookup;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.symbols.minidump.walk.CodeModule;
import io.symbolicate.symbols.minidump.walk.ModuleSymbols;
import io.symbolicate.symbols.minidump.walk.SymbolDirectory;
import io.symbolicate.symbols.minidump.walk.SymbolSupplier;
import io.symbolicate.symbols.nativecode.NativeHeader;
import io.symbolicate.symbols.nativecode.NativePage;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The walker's symbols for one walk of one event, answered from the symbol store (scope first,
 * then global): the module's native table holds its CFI and STACK WIN records beside its symbols.
 * It remembers every module the walk consulted, in order, which is what the event waits for
 * (docs/minidump.md, "Dumps in the stream"); past {@code maxModules} distinct modules it answers
 * nothing more, so that one dump cannot make the loader fetch thousands of files.
 */
final class StoreSymbols implements SymbolSupplier {
  /** Where a consulted module stands: its reference (null when its identifiers are invalid) and answer. */
  record Consulted(ModuleRef ref, SymbolLookup.Resolution resolution, boolean overCap) {}

  private final SymbolLookup lookup;
  private final String scope;
  private final int maxModules;
  private final Map<CodeModule, Consulted> consulted = new LinkedHashMap<>();
  private final Map<CodeModule, ModuleSymbols> symbols = new HashMap<>();
  private int counted;

  StoreSymbols(SymbolLookup lookup, String scope, int maxModules) {
    this.lookup = lookup;
    this.scope = scope;
    this.maxModules = maxModules;
  }

  @Override
  public ModuleSymbols find(CodeModule module) {
    Consulted c = consulted.computeIfAbsent(module, this::consult);
    if (c.resolution() == null || !c.resolution().found()) {
      return null;
    }
    SymbolLookup.Resolution r = c.resolution();
    return symbols.computeIfAbsent(
        module,
        m -> {
          NativeHeader header = lookup.header(r, NativeHeader::decode);
          if (header == null) {
            return null;
          }
          return SymbolDirectory.of(
              new NativeSymbolizer(
                  header, SourceContextLookup.tablePages(lookup, r, StoreSymbols::decodePage)));
        });
  }

  private Consulted consult(CodeModule module) {
    String key = WalkedDumpEvent.key(module);
    if (key == null) {
      return new Consulted(null, null, false);
    }
    if (counted >= maxModules) {
      return new Consulted(null, null, true);
    }
    counted++;
    ModuleRef ref = new ModuleRef(scope, TableKind.NATIVE, key);
    return new Consulted(ref, lookup.resolve(ref), false);
  }

  /** The references of the consulted modules, in the order the walk met them, at most {@code maxModules}. */
  List<ModuleRef> refs() {
    List<ModuleRef> out = new ArrayList<>();
    for (Consulted c : consulted.values()) {
      if (c.ref() != null) {
        out.add(c.ref());
      }
    }
    return out;
  }

  /** The status of a module the walk found no symbols for, and why; null for a module never consulted. */
  WalkedDumpEvent.Status statusOf(CodeModule module) {
    Consulted c = consulted.get(module);
    if (c == null) {
      return null;
    }
    if (c.overCap()) {
      return new WalkedDumpEvent.Status(
          ModuleStatus.fetch_failed,
          "not requested: the walk reached more than max.modules.per.event="
              + maxModules
              + " modules");
    }
    if (c.resolution() == null) {
      return null; // invalid identifiers: the event says malformed_request itself
    }
    SymbolLookup.Resolution r = c.resolution();
    return new WalkedDumpEvent.Status(r.moduleStatus(), r.found() ? null : r.message());
  }

  /** Pages for the shared cache, without the per-segment answer memo (as the native step decodes them). */
  private static NativePage decodePage(byte[] bytes) {
    return NativePage.decode(bytes, false);
  }
}
