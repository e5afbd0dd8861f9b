package io.symbolicate.symbols.pdb;

/** An {@code S_GPROC32}/{@code S_LPROC32} (or {@code _ID}) record: name, RVA and code size. */
public record PdbProcedure(String name, long rva, long size) {}
