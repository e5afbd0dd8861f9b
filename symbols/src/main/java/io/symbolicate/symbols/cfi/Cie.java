package io.symbolicate.symbols.cfi;

/**
 * A Common Information Entry: what its FDEs share. {@code fdeEncoding} is the {@code R}
 * augmentation's pointer encoding (or -1: absolute pointers of {@code addressSize}); {@code
 * lsdaEncoding} the {@code L} one (or -1); {@code hasAugmentationData} whether FDEs carry a {@code
 * z} length; the initial instructions are {@code [instructionsStart, instructionsEnd)} of the
 * section.
 */
record Cie(
    int offset,
    int version,
    int addressSize,
    long codeAlignment,
    long dataAlignment,
    long returnAddressRegister,
    int fdeEncoding,
    int lsdaEncoding,
    boolean hasAugmentationData,
    boolean signalFrame,
    int instructionsStart,
    int instructionsEnd) {}
