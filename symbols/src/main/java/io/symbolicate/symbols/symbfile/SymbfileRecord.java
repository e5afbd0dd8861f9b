package io.symbolicate.symbols.symbfile;

/** A record of a symbfile with its string references resolved: a range or a return pad. */
public sealed interface SymbfileRecord permits SymbfileRange, SymbfileReturnPad {
  /** ELF virtual address (unsigned), after delta decoding. */
  long elfVa();
}
