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
 */
public record DwarfOptions(
    boolean inlines,
    Function<String, String> demangler,
    LongFunction<String> symbolNames,
    long loadAddress) {

  public static DwarfOptions defaults() {
    return new DwarfOptions(false, null, null, 0);
  }

  public DwarfOptions withInlines(boolean on) {
    return new DwarfOptions(on, demangler, symbolNames, loadAddress);
  }

  public DwarfOptions withDemangler(Function<String, String> d) {
    return new DwarfOptions(inlines, d, symbolNames, loadAddress);
  }

  public DwarfOptions withSymbolNames(LongFunction<String> names) {
    return new DwarfOptions(inlines, demangler, names, loadAddress);
  }

  public DwarfOptions withLoadAddress(long base) {
    return new DwarfOptions(inlines, demangler, symbolNames, base);
  }
}
