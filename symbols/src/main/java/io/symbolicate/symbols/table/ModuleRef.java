package io.symbolicate.symbols.table;

import io.symbolicate.schema.Platform;
import io.symbolicate.symbols.id.DebugIdentifiers;
import java.nio.charset.StandardCharsets;

/**
 * A module's identity in the symbol store: {@code scope|kind|key}, e.g.
 * {@code global|N|xul.pdb/44E4EC8C2F41492B9369D6B9A059577C2}. Built only from validated parts,
 * so it contains no NUL byte (the key separator on {@code symbols.tables}).
 */
public record ModuleRef(String scope, TableKind kind, String key) {

  public ModuleRef {
    DebugIdentifiers.requireScope(scope);
    if (key == null || key.isEmpty() || key.indexOf('\0') >= 0 || key.indexOf('|') >= 0) {
      throw new DebugIdentifiers.InvalidIdentifierException("invalid module key");
    }
  }

  public static ModuleRef parse(String ref) {
    String[] parts = ref.split("\\|", 3);
    if (parts.length != 3 || parts[1].length() != 1) {
      throw new IllegalArgumentException("not a module reference: " + ref);
    }
    return new ModuleRef(parts[0], TableKind.fromTag((byte) parts[1].charAt(0)), parts[2]);
  }

  public ModuleRef inScope(String otherScope) {
    return new ModuleRef(otherScope, kind, key);
  }

  public boolean isGlobal() {
    return DebugIdentifiers.GLOBAL_SCOPE.equals(scope);
  }

  public Platform platform() {
    return switch (kind) {
      case NATIVE -> Platform.native$;
      case JS -> Platform.javascript;
      case JVM -> Platform.jvm;
      case DOTNET -> Platform.dotnet;
    };
  }

  public static TableKind kindOf(Platform p) {
    return switch (p) {
      case native$ -> TableKind.NATIVE;
      case javascript -> TableKind.JS;
      case jvm -> TableKind.JVM;
      case dotnet -> TableKind.DOTNET;
      default -> throw new IllegalArgumentException("no tables for platform " + p);
    };
  }

  @Override
  public String toString() {
    return scope + "|" + (char) kind.tag() + "|" + key;
  }

  byte[] bytes() {
    return toString().getBytes(StandardCharsets.UTF_8);
  }
}
