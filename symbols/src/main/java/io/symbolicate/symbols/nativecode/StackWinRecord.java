package io.symbolicate.symbols.nativecode;

/**
 * A {@code STACK WIN} record of a table page: its type (0 FPO, 4 frame data), its range and the
 * text of the fields after the size (prolog, epilog, parameter, saved-register, local and max
 * stack sizes, then the program string or the allocates-base-pointer flag).
 */
public record StackWinRecord(int type, long rva, long size, String fields) {}
