package io.symbolicate.api.upload;

import io.symbolicate.symbols.symbfile.FileId;
import io.symbolicate.symbols.symbfile.SymbfileException;
import io.symbolicate.symbols.symbfile.SymbfileKeys;
import io.symbolicate.symbols.symbfile.SymbfileReader;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * One of a FileID's two symbfiles (ranges or return pads): read to the end with
 * {@link SymbfileReader} (every record must decode), stored as
 * {@code <scope prefix>symbfile/<FileID>/<ranges|returnpads>.symbfile}, announced as the native
 * module {@code symbfile/<FileID>}.
 */
public enum SymbfileFormat implements UploadFormat {
  RANGES("symbfile-ranges", SymbfileKeys.RANGES),
  RETURN_PADS("symbfile-returnpads", SymbfileKeys.RETURN_PADS);

  private final String name;
  private final String fileName;

  SymbfileFormat(String name, String fileName) {
    this.name = name;
    this.fileName = fileName;
  }

  /** The canonical upload id (22 base64url characters) of a {@code FileID} header. */
  static String id(String header) throws UploadError {
    try {
      return FileId.parse(header).toBase64();
    } catch (SymbfileException e) {
      throw UploadError.badRequest("FileID: " + e.getMessage());
    }
  }

  @Override
  public String stagingName() {
    return name;
  }

  @Override
  public List<Placement> place(String scope, String id, Path file, Path work)
      throws UploadError, IOException {
    FileId fileId;
    try {
      fileId = FileId.parse(id);
    } catch (SymbfileException e) {
      throw UploadError.badRequest("FileID: " + e.getMessage());
    }
    try (SymbfileReader r =
        new SymbfileReader(new BufferedInputStream(Files.newInputStream(file)))) {
      while (r.next() != null) {
        // a full read: every record must decode
      }
    } catch (SymbfileException e) {
      throw UploadError.invalidFile(
          "the assembled "
              + (this == RANGES ? "ranges" : "returnpads")
              + " file is not a valid symbfile: "
              + e.getMessage());
    }
    return List.of(
        new Placement(
            SymbfileKeys.folder(scope, fileId) + fileName,
            file,
            new ModuleRef(scope, TableKind.NATIVE, SymbfileKeys.moduleKey(fileId))));
  }
}
