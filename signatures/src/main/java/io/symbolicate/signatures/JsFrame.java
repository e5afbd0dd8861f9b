package io.symbolicate.signatures;

/**
 * A symbolicated JavaScript frame (our extension of siggen's schema): function, source file or
 * URL, 1-based line and column, and whether it is the application's own code ({@code inApp},
 * {@code null} when the client did not say, then the file decides; see docs/signatures.md).
 */
public record JsFrame(String function, String file, Integer line, Integer column, Boolean inApp) {}
