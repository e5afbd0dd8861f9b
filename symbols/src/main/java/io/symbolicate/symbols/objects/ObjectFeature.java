package io.symbolicate.symbols.objects;

import java.util.Locale;

/** What an object holds that symbolication can use (Symbolicator's "features"). */
public enum ObjectFeature {
  /** A symbol table: public symbols. */
  SYMTAB,
  /** DWARF debug info: functions, lines, inlines. */
  DEBUG,
  /** Unwind info: {@code .eh_frame}, {@code .debug_frame}, {@code __unwind_info}. */
  UNWIND,
  /** Embedded source files. */
  SOURCES;

  public String jsonName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
