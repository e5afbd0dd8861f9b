package io.symbolicate.symbols.pdb;

/** An {@code S_PUB32} record: its decorated name, its RVA, and whether it names code. */
public record PdbPublic(String name, long rva, boolean code, boolean function) {}
