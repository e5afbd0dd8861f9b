package io.symbolicate.symbols.pdb;

/**
 * One row of a C13 line table: RVA, size up to the next row of its table (0 when two rows share
 * an offset, as Breakpad writes them), line and the source file's name.
 */
public record PdbLine(long rva, long size, long line, String file) {}
