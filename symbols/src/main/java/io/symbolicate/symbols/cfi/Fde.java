package io.symbolicate.symbols.cfi;

/**
 * A Frame Description Entry: the code range {@code [initialAddress, initialAddress + range)} and
 * its instructions {@code [instructionsStart, instructionsEnd)} of the section, run after its
 * CIE's initial instructions.
 */
record Fde(
    int offset,
    Cie cie,
    long initialAddress,
    long range,
    int instructionsStart,
    int instructionsEnd) {

  /** The end address, wrapping as the FDE's own arithmetic does. */
  long endAddress() {
    return initialAddress + range;
  }
}
