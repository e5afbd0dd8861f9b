package io.symbolicate.app.cli;

import io.symbolicate.symbols.io.CabFile;
import io.symbolicate.symbols.io.CabFormatException;
import io.symbolicate.symbols.io.DebugFileInput;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A symbol store's CAB-compressed file ({@code name.pd_}, {@code name.dl_}) given to a command:
 * its one file expanded into a temporary directory (deleted when the JVM exits) under the name
 * the cabinet gives it, so the readers see the PDB or PE image and its name.
 */
final class CabFiles {
  private CabFiles() {}

  /** The file itself, or for a cabinet the file it holds, expanded. */
  static Path expandIfCab(Path file) {
    try {
      if (!Files.isRegularFile(file) || !CabFile.isCab(head(file))) {
        return file;
      }
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
        if (ch.size() > Integer.MAX_VALUE) {
          throw new UserException(file + ": a cabinet over 2 GiB is not read");
        }
        CabFile cab = CabFile.parse(ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size()));
        CabFile.Entry e = cab.files().get(0);
        String name = Path.of(e.name().replace('\\', '/')).getFileName().toString();
        Path dir = Files.createTempDirectory("symbolicate-cab-");
        Path out = dir.resolve(name.isEmpty() || name.startsWith(".") ? "expanded" : name);
        dir.toFile().deleteOnExit();
        out.toFile().deleteOnExit();
        try (OutputStream o = Files.newOutputStream(out)) {
          cab.extract(e, o, DebugFileInput.DEFAULT_MAX_BYTES);
        }
        return out;
      }
    } catch (CabFormatException e) {
      throw new UserException(file + ": cabinet: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UserException(file + ": " + e.getMessage(), e);
    }
  }

  private static byte[] head(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return in.readNBytes(4);
    }
  }
}
