package io.symbolicate.symbols.cfi;

final class Arm64UnwindReader {
  Arm64UnwindReader(RvaReader image, PeUnwindReader out) {}

  void function(long begin, long unwindData, int entry) {}
}
