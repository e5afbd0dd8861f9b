package io.symbolicate.symbols.minidump;

/** A range of the crashed process's memory and where its bytes lie in the dump. */
public record MemoryRange(long base, long size, long rva) {
  public boolean contains(long address) {
    return Long.compareUnsigned(address, base) >= 0
        && Long.compareUnsigned(address - base, size) < 0;
  }

  public long end() {
    return base + size;
  }
}
