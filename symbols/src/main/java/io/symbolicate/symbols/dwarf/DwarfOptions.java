package io.symbolicate.symbols.dwarf;

import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * How {@link DwarfReader} names functions and what it emits.
 *
 * @param inlines emit INLINE_ORIGIN and INLINE records (Mozilla's {@code dump_syms --inlines}); else
 *     the lines of inlined code are the call sites' lines, as Breakpad writes them
 * @param demangler turns a mangled name into what a FUNC or INLINE_ORIGIN shows, null when it
 *     cannot; with no demangler, functions take their qualified DWARF name
 * @param symbolNames the symbol table's (mangled) name of a function starting exactly at an
 *     address (as DWARF gives it), or null: symbolic and Mozilla's dump_syms prefer it to the
 *     DWARF name (null: none)
 * @param loadAddress subtracted from every address written: records are relative to the
 *     module's base (an ELF's first PT_LOAD at file offset 0, 0 for PIE and shared objects)
 * @param breakpad write as Breakpad's own dump_syms does, not Mozilla's: a line record for every
 *     address of the line table (the same line twice in a row is not merged), and names from DWARF
 *     alone (the demangled linkage name, else the name qualified by its namespaces and classes)
 */
public record DwarfOptions(
    boolean inlines,
    Function<String, String> demangler,
    LongFunction<String> symbolNames,
    long loadAddress,
    boolean breakpad) {

  public DwarfOptions(
      boolean inlines,
      Function<String, String> demangler,
      LongFunction<String> symbolNames,
      long loadAddress) {
    this(inlines, demangler, symbolNames, loadAddress, false);
  }

  public static DwarfOptions defaults() {
    return new DwarfOptions(false, null, null, 0, false);
  }

  public DwarfOptions withBreakpad(boolean on) {
    return new DwarfOptions(inlines, demangler, symbolNames, loadAddress, on);
  }

  public DwarfOptions withInlines(boolean on) {
    return new DwarfOptions(on, demangler, symbolNames, loadAddress, breakpad);
  }

  public DwarfOptions withDemangler(Function<String, String> d) {
    return new DwarfOptions(inlines, d, symbolNames, loadAddress, breakpad);
  }

  public DwarfOptions withSymbolNames(LongFunction<String> names) {
    return new DwarfOptions(inlines, demangler, names, loadAddress, breakpad);
  }

  public DwarfOptions withLoadAddress(long base) {
    return new DwarfOptions(inlines, demangler, symbolNames, base, breakpad);
  }
}
