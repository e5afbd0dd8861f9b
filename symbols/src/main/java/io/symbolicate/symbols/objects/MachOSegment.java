package io.symbolicate.symbols.objects;

/** One Mach-O segment ({@code LC_SEGMENT}/{@code LC_SEGMENT_64}) as the file states it. */
public record MachOSegment(
    String name, long vmAddress, long vmSize, long fileOffset, long fileSize) {}
