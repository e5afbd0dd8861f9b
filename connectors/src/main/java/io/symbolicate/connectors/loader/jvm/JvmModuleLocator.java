package io.symbolicate.connectors.loader.jvm;

import io.symbolicate.connectors.loader.ModuleLocator;
import io.symbolicate.symbols.id.SymbolLayout;
import io.symbolicate.symbols.jvm.JvmSourceBundle;
import io.symbolicate.symbols.jvm.MappingLocator;
import io.symbolicate.symbols.table.ModuleRef;
import java.util.List;

/**
 * Where a JVM module's file lives, under the scope's prefix: a mapping at {@code
 * jvm/proguard/<uuid>/mapping.txt}; a source bundle ({@link JvmSourceBundle#isModuleKey}) at its
 * debug id in the {@code unified} layout, {@code <id[0:2]>/<id[2:]>/sourcebundle}.
 */
public final class JvmModuleLocator implements ModuleLocator {

  @Override
  public List<String> keys(ModuleRef ref) {
    String prefix = SymbolLayout.scopePrefix(ref.scope());
    if (JvmSourceBundle.isModuleKey(ref.key())) {
      return JvmSourceBundle.objectKeys(JvmSourceBundle.uuidOf(ref.key())).stream()
          .map(k -> prefix + k)
          .toList();
    }
    return List.of(prefix + MappingLocator.byUuid(ref.key()));
  }
}
