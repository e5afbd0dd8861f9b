package io.symbolicate.symbols.dotnet;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

/**
 * Method names from an assembly's own metadata: MethodDef's name, qualified by the TypeDef whose
 * method list holds it ({@code Namespace.Type.Method}, nested types joined with {@code +} as .NET
 * stack traces write them). A Portable PDB has no names; the assembly does.
 */
public final class MethodNames {
  static final MethodNames NONE = new MethodNames(null, null);

  /** Deepest nesting followed; a cycle of NestedClass rows stops here. */
  private static final int MAX_NESTING = 64;

  private final MetadataTables tables;
  private final Heaps heaps;

  private MethodNames(MetadataTables tables, Heaps heaps) {
    this.tables = tables;
    this.heaps = heaps;
  }

  static MethodNames read(byte[] metadata) {
    MetadataRoot root = MetadataRoot.parse(metadata, 0, metadata.length);
    MetadataRoot.Stream t = root.stream("#~");
    if (t == null) {
      t = root.stream("#-");
    }
    if (t == null) {
      return NONE;
    }
    return new MethodNames(new MetadataTables(metadata, t, null), new Heaps(metadata, root));
  }

  /** The qualified name of MethodDef row {@code method}, if the metadata has that row. */
  public Optional<String> name(int method) {
    if (tables == null || method < 1 || method > tables.rows(TableSchema.METHOD_DEF)) {
      return Optional.empty();
    }
    String name = heaps.string(tables.index(TableSchema.METHOD_DEF, method, 3));
    int type = owner(method);
    return Optional.of(type == 0 ? name : typeName(type) + "." + name);
  }

  /** The TypeDef whose MethodList range holds the method: the last one starting at or before. */
  private int owner(int method) {
    int types = tables.rows(TableSchema.TYPE_DEF);
    int found = 0;
    for (int i = 1; i <= types; i++) {
      int start = tables.index(TableSchema.TYPE_DEF, i, 5);
      if (start <= method && start != 0) {
        found = i;
      }
    }
    return found;
  }

  private String typeName(int type) {
    Deque<String> names = new ArrayDeque<>();
    names.addFirst(simpleName(type));
    int outer = type;
    for (int depth = 0; depth < MAX_NESTING; depth++) {
      int enclosing = enclosing(outer);
      if (enclosing == 0) {
        break;
      }
      names.addFirst(simpleName(enclosing));
      outer = enclosing;
    }
    String ns = heaps.string(tables.index(TableSchema.TYPE_DEF, outer, 2));
    return (ns.isEmpty() ? "" : ns + ".") + String.join("+", names);
  }

  private String simpleName(int type) {
    return heaps.string(tables.index(TableSchema.TYPE_DEF, type, 1));
  }

  private int enclosing(int type) {
    int n = tables.rows(0x29);
    for (int i = 1; i <= n; i++) {
      if (tables.index(0x29, i, 0) == type) {
        return tables.index(0x29, i, 1);
      }
    }
    return 0;
  }
}
