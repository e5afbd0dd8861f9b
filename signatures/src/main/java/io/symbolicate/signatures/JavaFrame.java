package io.symbolicate.signatures;

/** A frame of siggen's {@code java_exception} structure: class ("module"), method, file name. */
public record JavaFrame(String module, String function, String filename) {}
