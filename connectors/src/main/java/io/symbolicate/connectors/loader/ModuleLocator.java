package io.symbolicate.connectors.loader;

import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.id.SymbolLayout;
import io.symbolicate.symbols.table.ModuleRef;
import java.util.List;

/** Where a module's debug file lives in the sources: the layout, under the scope's prefix. */
public interface ModuleLocator {

  /** Candidate object keys, in the order to try; throws for identifiers that must not be keys. */
  List<String> keys(ModuleRef ref);

  /**
   * Fetches the module's file: by default the first of {@link #keys} that a source has. A layout
   * that must read one file to find another (a JS release's minified file, then its map)
   * overrides this, still through the same sources.
   */
  default FetchResult fetch(ModuleRef ref, SourceChain sources) {
    return sources.fetchFirst(keys(ref));
  }

  /** Mozilla's symbol-server layout for native modules ({@code debug_file/DEBUG_ID}). */
  static List<String> nativeKeys(ModuleRef ref) {
    int slash = ref.key().lastIndexOf('/');
    if (slash <= 0) {
      throw new DebugIdentifiers.InvalidIdentifierException(
          "native module key must be debug_file/debug_id");
    }
    var id =
        DebugIdentifiers.nativeModule(
            ref.key().substring(0, slash), ref.key().substring(slash + 1));
    String prefix = SymbolLayout.scopePrefix(ref.scope());
    return SymbolLayout.breakpad(id).stream().map(k -> prefix + k).toList();
  }
}
