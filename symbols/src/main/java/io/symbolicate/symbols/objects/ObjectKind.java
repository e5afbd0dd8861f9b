package io.symbolicate.symbols.objects;

import java.util.Locale;

/** What an object file is for, as Symbolicator classifies it. */
public enum ObjectKind {
  /** A program (ELF {@code ET_EXEC}, or PIE with an interpreter; Mach-O {@code MH_EXECUTE}). */
  EXECUTABLE,
  /** A shared library (ELF {@code ET_DYN}, Mach-O dylib or bundle). */
  LIBRARY,
  /** A debug companion: the debug sections split off a program or library, or a dSYM. */
  DEBUG,
  /** An object file before linking (ELF {@code ET_REL}, Mach-O {@code MH_OBJECT}). */
  RELOCATABLE,
  /** A core dump. */
  DUMP,
  OTHER;

  public String jsonName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
