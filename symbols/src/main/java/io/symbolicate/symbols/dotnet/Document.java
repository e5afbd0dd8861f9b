package io.symbolicate.symbols.dotnet;

/**
 * A row of the Document table: the source file's name as the compiler wrote it (often a Windows
 * path), its language GUID and the language that GUID names ({@code csharp}, {@code fsharp},
 * {@code visualbasic} or {@code unknown}).
 */
public record Document(int row, String name, String languageGuid, String language) {}
