package io.symbolicate.symbols.dwarf;

/** DWARF that cannot be read, with the reason (the section, offset and what it claims). */
public class DwarfException extends Exception {
  private static final long serialVersionUID = 1L;

  public DwarfException(String reason) {
    super(reason);
  }
}
