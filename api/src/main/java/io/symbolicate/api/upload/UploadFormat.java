package io.symbolicate.api.upload;

import io.symbolicate.symbols.table.ModuleRef;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * One kind of symbol file the upload routes take: how an assembled upload is validated and
 * where its file(s) go in the loader's layout, and which modules they stand for.
 */
public interface UploadFormat {
  /**
   * A file to write into the symbol store, the module to announce for it, and any other modules
   * it may belong to (a source bundle beside a {@code .pdb}: the Windows PDB's native module or
   * the Portable PDB's .NET one), announced too.
   */
  record Placement(String key, Path file, ModuleRef module, List<ModuleRef> alsoAnnounced) {
    public Placement(String key, Path file, ModuleRef module) {
      this(key, file, module, List.of());
    }
  }

  /** Names the staging folder of this format's parts ({@code [a-z0-9-]+}). */
  String stagingName();

  /**
   * Validates the assembled upload of {@code id} in {@code scope} and says where it goes. A bad
   * file is an {@link UploadError} (400, {@code 1006}) with the reason. {@code work} is an empty
   * directory for files the format extracts (deleted afterwards).
   */
  List<Placement> place(String scope, String id, Path file, Path work)
      throws UploadError, IOException;
}
