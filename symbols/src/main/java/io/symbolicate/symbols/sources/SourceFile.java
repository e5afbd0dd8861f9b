package io.symbolicate.symbols.sources;

/**
 * One source file of a bundle: where it is in the zip, the path it was compiled from (native,
 * .NET) or the URL it was served at (JavaScript), the debug id its headers name (JS, JVM), and
 * its text (UTF-8, checked).
 */
public record SourceFile(
    String zipPath, String type, String path, String url, String debugId, String text) {}
