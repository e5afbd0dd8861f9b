package io.symbolicate.symbols.minidump.walk;

/** Finds the symbols of a module; null when there are none (the module is listed as missing). */
public interface SymbolSupplier {
  ModuleSymbols find(CodeModule module);

  /** No symbols at all: the walk uses frame pointers and stack scanning only. */
  SymbolSupplier NONE = module -> null;
}
