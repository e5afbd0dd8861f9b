package io.symbolicate.symbols.nativecode;

/**
 * One inlined frame. {@code file}/{@code line} are the line record's for the innermost frame and
 * the call site of the next inner inlinee for the others; null when unknown.
 */
public record InlineFrame(
    String function, long functionBase, String file, Integer line, Long lineBase) {}
