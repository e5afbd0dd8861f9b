package io.symbolicate.symbols.pdb;

/**
 * One x86 frame data record, as DIA's {@code IDiaFrameData} gives it and Breakpad writes it as
 * {@code STACK WIN}: {@code type} 0 (FPO) to 3 from the old FPO stream, 4 (frame data) from the
 * new one; sizes in bytes; {@code program} the postfix program of a frame data record (null for
 * FPO, which says instead whether the function uses {@code %ebp}: {@code allocatesBasePointer}).
 * {@code rva} is in the linker's (original) address space.
 */
public record PdbFrame(
    int type,
    long rva,
    long codeSize,
    long prologSize,
    long parameterSize,
    long savedRegisterSize,
    long localSize,
    long maxStackSize,
    String program,
    boolean allocatesBasePointer) {}
