package io.symbolicate.symbols.objects;

/**
 * A function symbol of an object's symbol table, as Breakpad writes a {@code PUBLIC} record: its
 * name as stored (mangled), its address as the file states it (not relative to the load
 * address), and its size (0 when the table gives none, as in Mach-O).
 */
public record ObjectSymbol(String name, long address, long size) {}
