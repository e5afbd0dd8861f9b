package io.symbolicate.connectors.loader.dotnet;

import io.symbolicate.connectors.loader.ModuleLocator;
import io.symbolicate.symbols.id.SymbolLayout;
import io.symbolicate.symbols.table.ModuleRef;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Where a .NET module's Portable PDB lives, for the module {@code <name.pdb>/<GUID><stamp>}: in
 * the symbol-server layout Portable PDBs are stored under the GUID and {@code ffffffff} (as
 * Symbolicator's fixtures and the SSQP convention have them; the stamp is not part of the
 * address), then lower case (SSQP), then under the full id (where an upload to the module's key
 * puts it). Each key is one request per source for a module not found.
 */
public final class DotnetModuleLocator implements ModuleLocator {
  @Override
  public List<String> keys(ModuleRef ref) {
    String key = ref.key();
    int slash = key.indexOf('/');
    String name = key.substring(0, slash);
    String id = key.substring(slash + 1);
    String prefix = SymbolLayout.scopePrefix(ref.scope());
    Set<String> keys = new LinkedHashSet<>();
    if (id.length() >= 32) {
      String guid = id.substring(0, 32);
      keys.add(prefix + name + "/" + guid + "ffffffff/" + name);
      keys.add(prefix + name + "/" + guid + "FFFFFFFF/" + name);
      String lower = name.toLowerCase(Locale.ROOT);
      keys.add(prefix + lower + "/" + guid.toLowerCase(Locale.ROOT) + "ffffffff/" + lower);
    }
    keys.add(prefix + name + "/" + id + "/" + name);
    return List.copyOf(keys);
  }
}
