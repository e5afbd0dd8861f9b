package io.symbolicate.symbols.dwarf;

import io.symbolicate.symbols.objects.ObjectSections;

/**
 * Finds the {@code .dwo} file a skeleton unit names. The reader asks once per skeleton without a
 * unit in the {@code .dwp} package; where to look (the compile directory, beside the executable)
 * is the caller's business, so this package does no file I/O.
 */
@FunctionalInterface
public interface DwoLocator {
  /**
   * The {@code .dwo} named {@code dwoName} by a skeleton compiled in {@code compDir} (either may
   * be relative, {@code compDir} may be null), or null when none is found.
   */
  Dwo find(String dwoName, String compDir);

  /** A {@code .dwo} found: where (for messages) and its sections. */
  record Dwo(String path, ObjectSections sections) {}

  /** Finds nothing: every skeleton keeps only what the executable says. */
  DwoLocator NONE = (name, dir) -> null;
}
