package io.symbolicate.symbols.nativecode;

/** One accepted inline range, linked to its parent: a chain walk is a pointer chase. */
final class InlineRange {
  final SharedUtf8 name;
  final SharedUtf8 callFile; // null: keep the line record's file (old format, unknown id)
  final int callLine;
  final long start;
  final int depth;
  final InlineRange parent;

  InlineRange(SharedUtf8 name, SharedUtf8 callFile, int callLine, long start, InlineRange parent) {
    this.name = name;
    this.callFile = callFile;
    this.callLine = callLine;
    this.start = start;
    this.parent = parent;
    this.depth = parent == null ? 1 : parent.depth + 1;
  }
}
