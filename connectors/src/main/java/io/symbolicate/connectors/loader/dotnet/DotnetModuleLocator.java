package io.symbolicate.connectors.loader.dotnet;

import io.symbolicate.connectors.loader.ModuleLocator;
import io.symbolicate.connectors.loader.SourceBundleFetch;
import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.connectors.source.SymbolSource;
import io.symbolicate.symbols.id.DebugFileLayout;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.id.SymbolLayout;
import io.symbolicate.symbols.table.ModuleRef;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Where a .NET module's Portable PDB lives: the module is {@code <name.pdb>/<DEBUG_ID>} (the
 * PDB's GUID and its 4-byte stamp as the age), searched in the debug-file layouts each source is
 * searched in for native debug files ({@code loader.debug.file.layouts}):
 *
 * <ul>
 *   <li>{@code native}: {@code <name.pdb>/<DEBUG_ID>/<name.pdb>}, where the upload API stores it;
 *   <li>{@code symstore}, {@code symstore_index2}, {@code ssqp}: {@code
 *       <name.pdb>/<GUID>ffffffff/<name.pdb>}, the age of a Portable PDB in a symbol store being
 *       {@code FFFFFFFF} (as Symbolicator looks it up); the plain file only, no {@code .pd_} or
 *       {@code file.ptr};
 *   <li>{@code unified}: {@code <id[0:2]>/<id[2:]>/debuginfo}, the debug id in lower case.
 * </ul>
 *
 * <p>The source bundle beside the PDB ({@link #bundleKeys}) comes with it as the fetch's companion.
 */
public final class DotnetModuleLocator implements ModuleLocator {
  /** The age a symbol store gives a Portable PDB's folder. */
  static final String SYMSTORE_AGE = "FFFFFFFF";

  private final Function<SymbolSource, List<DebugFileLayout>> layouts;
  private final int sourceBundleCap = SourceBundleFetch.cap();

  /** @param layouts the debug-file layouts a source is searched in */
  public DotnetModuleLocator(Function<SymbolSource, List<DebugFileLayout>> layouts) {
    this.layouts = layouts;
  }

  /** The keys in the native layout (after validating the identifiers). */
  @Override
  public List<String> keys(ModuleRef ref) {
    return keys(ref, List.of(DebugFileLayout.NATIVE));
  }

  /** The candidate keys of a module in {@code searched}, in order, under the scope's prefix. */
  public static List<String> keys(ModuleRef ref, List<DebugFileLayout> searched) {
    DebugIdentifiers.Native id = identity(ref);
    String prefix = SymbolLayout.scopePrefix(ref.scope());
    DebugFileLayout.Query q = query(id);
    DebugFileLayout.Query store = symstoreQuery(id);
    List<String> keys = new ArrayList<>();
    for (DebugFileLayout l : searched) {
      for (String k : l.keys(isSymstore(l) ? store : q, DebugFileLayout.Kind.DEBUG_INFO)) {
        // a symbol store's compressed copy and redirect are not read for Portable PDBs
        if (!k.endsWith("_") && !k.endsWith("/" + DebugFileLayout.FILE_PTR)) {
          keys.add(prefix + k);
        }
      }
    }
    return keys;
  }

  /** The module's PDB name and debug id, from its key {@code name/DEBUG_ID}. */
  static DebugIdentifiers.Native identity(ModuleRef ref) {
    int slash = ref.key().lastIndexOf('/');
    if (slash <= 0) {
      throw new DebugIdentifiers.InvalidIdentifierException(
          ".NET module key must be debug_file/debug_id");
    }
    return DebugIdentifiers.nativeModule(
        ref.key().substring(0, slash), ref.key().substring(slash + 1));
  }

  /**
   * The module's Portable PDB and, when found, the source bundle beside it as the fetch's
   * companion ({@link SourceBundleFetch}), whose files give context to the documents the PDB does
   * not embed.
   */
  @Override
  public FetchResult fetch(ModuleRef ref, SourceChain sources) {
    keys(ref); // refuses a bad key before any source is asked
    FetchResult pdb = sources.fetchFirst(s -> keys(ref, layouts.apply(s)));
    if (!(pdb instanceof FetchResult.Found found)) {
      return pdb;
    }
    return SourceBundleFetch.attach(
        found, sources, s -> bundleKeys(ref, layouts.apply(s)), sourceBundleCap);
  }

  /**
   * The keys of a module's source bundle in {@code searched}, in order, under the scope's prefix:
   * in each layout beside where the PDB is, named as the PDB with {@code .src.zip} for its
   * extension ({@code native}: {@code <name.pdb>/<DEBUG_ID>/<name>.src.zip}, then {@code
   * <name.pdb>.src.zip}; the symbol-store layouts: {@code <name.pdb>/<GUID><stamp>/<name>.src.zip}
   * with the PDB's own stamp, then with {@code ffffffff}, as Symbolicator's candidates list them),
   * and {@code unified}'s {@code <id[0:2]>/<id[2:]>/sourcebundle}.
   */
  public static List<String> bundleKeys(ModuleRef ref, List<DebugFileLayout> searched) {
    DebugIdentifiers.Native id = identity(ref);
    String prefix = SymbolLayout.scopePrefix(ref.scope());
    DebugFileLayout.Query q = query(id);
    DebugFileLayout.Query store = symstoreQuery(id);
    List<String> keys = new ArrayList<>();
    for (DebugFileLayout l : searched) {
      for (String k : l.keys(q, DebugFileLayout.Kind.SOURCE_BUNDLE)) {
        keys.add(prefix + k);
      }
      if (isSymstore(l)) {
        for (String k : l.keys(store, DebugFileLayout.Kind.SOURCE_BUNDLE)) {
          if (!keys.contains(prefix + k)) {
            keys.add(prefix + k);
          }
        }
      }
    }
    return keys;
  }

  private static DebugFileLayout.Query query(DebugIdentifiers.Native id) {
    return new DebugFileLayout.Query(id.debugFile(), id.debugId(), null, null);
  }

  /** A symbol store keys a Portable PDB by its GUID and the age {@code ffffffff}. */
  private static DebugFileLayout.Query symstoreQuery(DebugIdentifiers.Native id) {
    return new DebugFileLayout.Query(
        id.debugFile(), id.debugId().substring(0, 32) + SYMSTORE_AGE, null, null);
  }

  private static boolean isSymstore(DebugFileLayout l) {
    return l == DebugFileLayout.SYMSTORE
        || l == DebugFileLayout.SYMSTORE_INDEX2
        || l == DebugFileLayout.SSQP;
  }
}
