package io.symbolicate.api.upload;

import io.symbolicate.symbols.dotnet.DotnetImage;
import io.symbolicate.symbols.dotnet.PortablePdb;
import io.symbolicate.symbols.dotnet.PortablePdbException;
import io.symbolicate.symbols.id.DebugFileLayout;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.id.SymbolLayout;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * .NET debug files in a debug-file upload: a Portable PDB ({@code BSJB}), stored in the native
 * layout under its name and its id (GUID and stamp), {@code <name.pdb>/<DEBUG_ID>/<name.pdb>},
 * and announced as a {@code dotnet} module; and an assembly that embeds its Portable PDB, stored
 * there too (the loader reads the PDB out of it) under the PDB's name from its CodeView entry.
 */
final class PortablePdbUploads {
  private PortablePdbUploads() {}

  /** The largest Portable PDB read here: as large as one embedded in an assembly may be. */
  static final long MAX_PDB_BYTES = DotnetImage.MAX_EMBEDDED_PDB_BYTES;

  /** A .NET debug file's place: the key, the file, its module, and its debug id. */
  record Found(UploadFormat.Placement placement, String debugId) {}

  static boolean isPortablePdb(byte[] head) {
    return head.length >= 4 && head[0] == 'B' && head[1] == 'S' && head[2] == 'J' && head[3] == 'B';
  }

  static boolean isPortablePdb(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return isPortablePdb(in.readNBytes(4));
    }
  }

  /** A Portable PDB uploaded as {@code name}; refused with the reader's reason when it does not read. */
  static Found portablePdb(String scope, String name, Path file, String what)
      throws UploadError, IOException {
    if (Files.size(file) > MAX_PDB_BYTES) {
      throw UploadError.invalidFile(
          what + " is a Portable PDB of more than " + MAX_PDB_BYTES + " bytes");
    }
    try {
      PortablePdb pdb = PortablePdb.parse(Files.readAllBytes(file));
      return place(scope, name, pdb.debugId(), file);
    } catch (PortablePdbException e) {
      throw UploadError.invalidFile(what + " is not a valid Portable PDB: " + e.getMessage());
    } catch (IllegalArgumentException e) {
      throw UploadError.invalidFile(what + ": " + e.getMessage());
    }
  }

  /**
   * The Portable PDB a .NET assembly embeds, placed as that PDB (the assembly's file, which the
   * loader reads it out of), or empty when it embeds none or is no .NET assembly.
   */
  static Optional<Found> embedded(String scope, String assemblyName, Path file, String what)
      throws UploadError, IOException {
    if (Files.size(file) > MAX_PDB_BYTES) {
      return Optional.empty();
    }
    try {
      DotnetImage image = DotnetImage.parse(Files.readAllBytes(file));
      Optional<byte[]> pdb = image.embeddedPortablePdb();
      if (pdb.isEmpty()) {
        return Optional.empty();
      }
      String debugId = PortablePdb.parse(pdb.get()).debugId();
      String name =
          image
              .portablePdbReference()
              .map(r -> baseName(r.path()))
              .filter(n -> !n.isEmpty())
              .orElse(withoutExtension(assemblyName) + ".pdb");
      return Optional.of(place(scope, name, debugId, file));
    } catch (PortablePdbException e) {
      // an ordinary PE image (no CLI metadata) is not this class's to refuse
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      throw UploadError.invalidFile(what + ": its embedded Portable PDB: " + e.getMessage());
    }
  }

  private static Found place(String scope, String name, String debugId, Path file) {
    DebugIdentifiers.Native id = DebugIdentifiers.nativeModule(name, debugId);
    DebugFileLayout.Query q = new DebugFileLayout.Query(id.debugFile(), id.debugId(), null, null);
    String key = DebugFileLayout.NATIVE.keys(q, DebugFileLayout.Kind.DEBUG_INFO).get(0);
    return new Found(
        new UploadFormat.Placement(
            SymbolLayout.scopePrefix(scope) + key,
            file,
            new ModuleRef(scope, TableKind.DOTNET, id.key())),
        id.debugId());
  }

  private static String baseName(String path) {
    return path.substring(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  }

  private static String withoutExtension(String name) {
    int dot = name.lastIndexOf('.');
    return dot > 0 ? name.substring(0, dot) : name;
  }
}
