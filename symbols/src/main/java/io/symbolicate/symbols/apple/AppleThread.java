package io.symbolicate.symbols.apple;

import java.util.List;
import java.util.SortedMap;

/**
 * One thread of a report.
 *
 * @param id the thread's number in the report (unsigned; for .ips its index in {@code threads})
 * @param registers register name to value (unsigned), or null: only the crashed thread has them
 */
public record AppleThread(
    long id,
    String name,
    String dispatchQueue,
    boolean crashed,
    List<AppleFrame> frames,
    SortedMap<String, Long> registers) {}
