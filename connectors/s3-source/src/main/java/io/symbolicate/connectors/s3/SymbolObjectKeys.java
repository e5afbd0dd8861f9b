package io.symbolicate.connectors.s3;

import io.symbolicate.symbols.id.DebugFileLayout;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.id.SymbolLayout;
import io.symbolicate.symbols.js.JsReleaseModule;
import io.symbolicate.symbols.js.JsSymbolKeys;
import io.symbolicate.symbols.jvm.MappingLocator;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.util.Locale;

/**
 * The module an object of the symbol bucket stands for: the inverse of the layout the loader
 * fetches by ({@link SymbolLayout}, {@link MappingLocator}, {@link JsSymbolKeys}). A key is
 * accepted only when the loader's own layout, applied to the module found, gives that key back,
 * so an announced module is one whose load reads this very object.
 */
final class SymbolObjectKeys {
  static final String SCOPES = "scopes/";

  /** An ELF or Mach-O debug id: the 32 digits of the build id's or UUID's GUID, and age 0. */
  private static final int ELF_MACHO_ID_LENGTH = 33;

  private SymbolObjectKeys() {}

  /** The module of an object key, or null when the object is not a symbol file of a known layout. */
  static ModuleRef moduleOf(String objectKey) {
    if (objectKey == null || objectKey.isEmpty() || objectKey.endsWith("/")) {
      return null;
    }
    if (objectKey.startsWith(SCOPES)) {
      int end = objectKey.indexOf('/', SCOPES.length());
      if (end > SCOPES.length()) {
        String scope = objectKey.substring(SCOPES.length(), end);
        ModuleRef scoped = inScope(scope, objectKey.substring(end + 1));
        if (scoped != null) {
          return scoped;
        }
      }
      // "scopes" may also be a native debug file name of the global scope
    }
    return inScope(DebugIdentifiers.GLOBAL_SCOPE, objectKey);
  }

  private static ModuleRef inScope(String scope, String rest) {
    try {
      DebugIdentifiers.requireScope(scope);
      if (rest.startsWith(MappingLocator.PREFIX)) {
        return jvm(scope, rest);
      }
      if (rest.startsWith("js/")) {
        return js(scope, rest);
      }
      return nativeFile(scope, rest);
    } catch (IllegalArgumentException e) {
      // invalid identifiers (DebugIdentifiers.InvalidIdentifierException among them)
      return null;
    }
  }

  /** {@code jvm/proguard/<uuid>/mapping.txt}; mappings by release are looked up by events, not loaded. */
  private static ModuleRef jvm(String scope, String rest) {
    String[] p = rest.split("/", -1);
    if (p.length != 4 || !p[1].equals("proguard") || !p[3].equals("mapping.txt")) {
      return null;
    }
    String uuid = MappingLocator.normaliseUuid(p[2]);
    return MappingLocator.byUuid(uuid).equals(rest)
        ? new ModuleRef(scope, TableKind.JVM, uuid)
        : null;
  }

  /**
   * {@code js/debug-id/<id>/sourcemap|minified}: the module of that debug id.
   * {@code js/release/<release>/<dist>/<url>}: the module named by that URL; a {@code <url>.map}
   * stands for the module of {@code <url>} (the name the locator guesses for a map).
   */
  private static ModuleRef js(String scope, String rest) {
    String[] p = rest.split("/", -1);
    if (p.length == 4
        && p[1].equals("debug-id")
        && (p[3].equals("sourcemap") || p[3].equals("minified"))) {
      String id = JsSymbolKeys.normalizeDebugId(p[2]);
      if (id == null
          || !JsSymbolKeys.sourcemapByDebugId(id).equals("js/debug-id/" + p[2] + "/sourcemap")) {
        return null;
      }
      return new ModuleRef(scope, TableKind.JS, id);
    }
    if (p.length == 5 && p[1].equals("release")) {
      JsReleaseModule m =
          JsReleaseModule.parse(JsReleaseModule.KEY_PREFIX + p[2] + "/" + p[3] + "/" + p[4]);
      if (m.url().endsWith(".map") && m.url().length() > ".map".length()) {
        m =
            new JsReleaseModule(
                m.release(), m.dist(), m.url().substring(0, m.url().length() - ".map".length()));
      }
      return new ModuleRef(scope, TableKind.JS, m.key());
    }
    return null;
  }

  /**
   * Mozilla's layout, {@code <debug_file>/<DEBUG_ID>/<debug_file minus .pdb>.sym}, and a debug
   * file itself in the {@code native} debug-file layout, {@code <debug_file>/<DEBUG_ID>/<debug_file>}
   * (where the upload API stores ELF, Mach-O, PDB and Portable PDB files). A {@code .pdb} there
   * is a Windows PDB or a .NET Portable PDB, which its key does not tell: {@link #isPdb} says
   * which to look into ({@link PrefixScanner} reads its first bytes), and this gives the native
   * module.
   */
  private static ModuleRef nativeFile(String scope, String rest) {
    String[] p = rest.split("/", -1);
    if (p.length != 3) {
      return null;
    }
    DebugIdentifiers.Native id = DebugIdentifiers.nativeModule(p[0], p[1]);
    if (p[2].endsWith(".sym")) {
      return SymbolLayout.breakpad(id).get(0).equals(rest)
          ? new ModuleRef(scope, TableKind.NATIVE, id.key())
          : null;
    }
    if (!DebugFileLayout.isPdb(id.debugFile())
        && !isImageName(id.debugFile())
        && id.debugId().length() != ELF_MACHO_ID_LENGTH) {
      // the executable beside an ELF debug file has the same shape under its 40-digit build id
      return null;
    }
    DebugFileLayout.Query q = new DebugFileLayout.Query(id.debugFile(), id.debugId(), null, null);
    return DebugFileLayout.NATIVE.keys(q, DebugFileLayout.Kind.DEBUG_INFO).contains(rest)
        ? new ModuleRef(scope, TableKind.NATIVE, id.key())
        : null;
  }

  /** A debug file named {@code .pdb} (not its {@code .sym}): Windows or .NET, told by its bytes. */
  static boolean isPdb(String objectKey, ModuleRef module) {
    return module.kind() == TableKind.NATIVE
        && !objectKey.endsWith(".sym")
        && DebugFileLayout.isPdb(objectKey.substring(objectKey.lastIndexOf('/') + 1));
  }

  /**
   * A Windows image ({@code .dll}, {@code .exe}) under a PDB-shaped debug id: where the upload API
   * stores an image, and where the loader looks for one when its PDB is nowhere ({@code
   * name.dll/<DEBUG_ID>/name.dll}). Events name such a module by its PDB, so its bytes decide
   * ({@link #isPeImage}): a PE image announces the module {@link #asPdbModule} names.
   */
  static boolean isImage(String objectKey, ModuleRef module) {
    return module.kind() == TableKind.NATIVE
        && isImageName(objectKey.substring(objectKey.lastIndexOf('/') + 1));
  }

  private static boolean isImageName(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    return n.endsWith(".dll") || n.endsWith(".exe");
  }

  /** Whether a native module's debug id has the shape of an ELF build id's or a Mach-O UUID's. */
  static boolean hasElfOrMachOId(ModuleRef module) {
    String key = module.key();
    return key.length() - key.indexOf('/') - 1 == ELF_MACHO_ID_LENGTH;
  }

  /** A PE image's DOS header ("MZ"). */
  static boolean isPeImage(byte[] head) {
    return head.length >= 2 && head[0] == 'M' && head[1] == 'Z';
  }

  /**
   * The module events name an image by: its PDB, taken to share the image's base name (the
   * loader's same guess, docs/operations.md), under the same debug id; null when the image is
   * not under a PDB-shaped id (32 GUID digits and an age).
   */
  static ModuleRef asPdbModule(ModuleRef module) {
    String key = module.key();
    int slash = key.indexOf('/');
    String name = key.substring(0, slash);
    String id = key.substring(slash + 1);
    if (id.length() < ELF_MACHO_ID_LENGTH || !isImageName(name)) {
      return null;
    }
    String pdb = name.substring(0, name.length() - 4) + ".pdb";
    return new ModuleRef(module.scope(), TableKind.NATIVE, pdb + "/" + id);
  }

  /** The Portable PDB's metadata signature ("BSJB"), where a Windows PDB has its MSF magic. */
  static boolean isPortablePdb(byte[] head) {
    return head.length >= 4 && head[0] == 'B' && head[1] == 'S' && head[2] == 'J' && head[3] == 'B';
  }

  /** The same module as a .NET one (a Portable PDB's). */
  static ModuleRef asDotnet(ModuleRef module) {
    return new ModuleRef(module.scope(), TableKind.DOTNET, module.key());
  }
}
