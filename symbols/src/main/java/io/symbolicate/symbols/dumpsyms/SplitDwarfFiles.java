package io.symbolicate.symbols.dumpsyms;

import io.symbolicate.symbols.dwarf.DwoLocator;
import io.symbolicate.symbols.objects.ElfFile;
import io.symbolicate.symbols.objects.ObjectFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Where the split DWARF of an ELF file is looked for, as llvm-symbolizer, Mozilla's {@code
 * dump_syms} and Symbolicator look: the package {@code <file>.dwp} beside the executable (or beside
 * its debug file), and each {@code .dwo} by the name its skeleton gives, in the skeleton's compile
 * directory (absolute, or relative to the executable's folder), else beside the executable by the
 * same relative name or by its file name alone.
 */
final class SplitDwarfFiles implements DwoLocator {
  private final List<Path> dirs;
  private final List<String> notes;

  /** {@code files}: the executable and its debug file (null entries ignored). */
  SplitDwarfFiles(List<Path> files, List<String> notes) {
    Set<Path> d = new LinkedHashSet<>();
    for (Path f : files) {
      if (f != null && f.toAbsolutePath().getParent() != null) {
        d.add(f.toAbsolutePath().getParent());
      }
    }
    this.dirs = new ArrayList<>(d);
    this.notes = notes;
  }

  /** The {@code .dwp} package of {@code file} (or of its debug file), or null. */
  static Path packageOf(Path file, Path debugFile) {
    List<Path> candidates = new ArrayList<>();
    candidates.add(sibling(file, file.getFileName() + ".dwp"));
    if (debugFile != null) {
      String name = debugFile.getFileName().toString();
      candidates.add(sibling(debugFile, name + ".dwp"));
      if (name.endsWith(".debug")) {
        candidates.add(sibling(debugFile, name.substring(0, name.length() - 6) + ".dwp"));
      }
    }
    for (Path p : candidates) {
      if (Files.isRegularFile(p)) {
        return p;
      }
    }
    return null;
  }

  private static Path sibling(Path file, String name) {
    return file.toAbsolutePath().resolveSibling(name);
  }

  @Override
  public Dwo find(String dwoName, String compDir) {
    for (Path p : candidates(dwoName, compDir)) {
      if (!Files.isRegularFile(p)) {
        continue;
      }
      try {
        if (!ElfFile.isElf(DumpSyms.head(p))) {
          notes.add("split DWARF " + p + " is not an ELF file: not used");
          continue;
        }
        return new Dwo(p.toString(), ElfFile.open(p));
      } catch (IOException | ObjectFormatException e) {
        notes.add("split DWARF " + p + " cannot be read: " + e.getMessage());
      }
    }
    return null;
  }

  List<Path> candidates(String dwoName, String compDir) {
    Set<Path> out = new LinkedHashSet<>();
    try {
      Path name = Path.of(dwoName);
      if (name.isAbsolute()) {
        out.add(name.normalize());
      }
      Path dir = compDir == null || compDir.isEmpty() ? null : Path.of(compDir);
      if (dir != null && dir.isAbsolute()) {
        out.add(dir.resolve(name).normalize());
      }
      for (Path d : dirs) {
        if (dir != null && !dir.isAbsolute()) {
          out.add(d.resolve(dir).resolve(name).normalize());
        }
        if (!name.isAbsolute()) {
          out.add(d.resolve(name).normalize());
        }
        if (name.getFileName() != null) {
          out.add(d.resolve(name.getFileName()));
        }
      }
    } catch (InvalidPathException e) {
      notes.add("split DWARF name " + dwoName + " is not a path: " + e.getMessage());
    }
    return new ArrayList<>(out);
  }
}
