package io.symbolicate.symbols.pdb;

/**
 * One module (compiland) of the DBI stream: its names, and where its symbols ({@code
 * symbolBytes}, after a 4-byte signature), old C11 lines and C13 debug subsections lie in its
 * stream ({@code stream} -1: none).
 */
public record PdbModule(
    String name, String objectName, int stream, long symbolBytes, long c11Bytes, long c13Bytes) {}
