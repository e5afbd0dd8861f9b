package io.symbolicate.symbols.symbfile;

/**
 * One {@code ReturnPadV1}: the whole inline trace at {@code elfVa} (a return address minus one),
 * outermost first. {@code lines[i]} is the line of the call into frame {@code i + 1}, and for
 * the last frame the line of the return pad itself.
 */
public record SymbfileReturnPad(long elfVa, String[] functions, String[] files, int[] lines)
    implements SymbfileRecord {

  public int depth() {
    return functions.length;
  }
}
