package io.symbolicate.symbols.symbfile;

/**
 * One {@code RangeV1}: {@code [elfVa, elfVa + length)} belongs to {@code function} at
 * {@code depth} of an inline chain (0: the real function). Strings are resolved (null when the
 * record has none); {@code callFile} of an inlinee without one is its parent's file, as the
 * format says. {@code lineOffsets} are the running sums of the line table (offsets from
 * {@code elfVa}), beside their {@code lineNumbers}; each line holds to the next offset or the
 * range's end.
 */
public record SymbfileRange(
    long elfVa,
    long length,
    String function,
    String file,
    int callLine,
    String callFile,
    int depth,
    long[] lineOffsets,
    int[] lineNumbers)
    implements SymbfileRecord {

  public int lineCount() {
    return lineNumbers.length;
  }
}
