package io.symbolicate.symbols.js;

/**
 * Result of a lookup, all positions 0-based. A segment with only a generated column (1-field
 * segment) gives {@code source == null, line == -1, column == -1}: it maps to nothing.
 *
 * @param sourceIndex table source index (for context lines), -1 when unmapped
 * @param name the segment's name (5th field), or null
 */
public record JsLocation(
    int generatedLine,
    int generatedColumn,
    String source,
    int sourceIndex,
    int line,
    int column,
    String name,
    boolean ignored) {

  public boolean mapped() {
    return sourceIndex >= 0;
  }
}
