package io.symbolicate.symbols.table;

/**
 * One page of a compact symbol table, stored under {@code module ‖ big-endian firstKey}.
 * The key space is the platform's: a module-relative address (native), a generated line (js),
 * a class-name hash (jvm). A floor lookup on the key finds the page for any key inside it.
 */
public record TablePage(long firstKey, byte[] bytes) {}
