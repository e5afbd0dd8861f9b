package io.symbolicate.symbols.nativecode;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * Breakpad symbol files of a chosen size for the benchmarks (the pipeline benchmark's warm
 * modules, the batch lookup benchmark): FUNCs with line records and some inlines, seeded so runs
 * are comparable. (The real 130 MB file is used for the loading phase.)
 */
public final class SyntheticSymFile {
  /** Bytes of address per FUNC; FUNC {@code i} starts at {@code 0x1000 + i * FUNC_SIZE}. */
  public static final int FUNC_SIZE = 0x100;

  private SyntheticSymFile() {}

  public static String debugId(int module) {
    return String.format("%08X%024X0", 0xB0000000 + module, module * 7919L);
  }

  public static String debugFile(int module) {
    return "libbench" + module + ".so";
  }

  public static byte[] sym(int module, int functions) {
    Random rnd = new Random(module);
    StringBuilder b = new StringBuilder(functions * 120);
    b.append("MODULE Linux x86_64 ")
        .append(debugId(module))
        .append(' ')
        .append(debugFile(module))
        .append('\n');
    for (int f = 0; f < 16; f++) {
      b.append("FILE ")
          .append(f)
          .append(" src/bench/module")
          .append(module)
          .append("/file")
          .append(f)
          .append(".cc\n");
    }
    b.append("INLINE_ORIGIN 0 bench::inlined_helper(int)\n");
    for (int i = 0; i < functions; i++) {
      long base = 0x1000L + (long) i * FUNC_SIZE;
      b.append("FUNC ")
          .append(Long.toHexString(base))
          .append(" ")
          .append(Integer.toHexString(FUNC_SIZE))
          .append(" 0 bench::module")
          .append(module)
          .append("::function_")
          .append(i)
          .append("(int, char const*)\n");
      if (i % 4 == 0) {
        b.append("INLINE 0 ")
            .append(10 + i % 50)
            .append(' ')
            .append(i % 16)
            .append(" 0 ")
            .append(Long.toHexString(base + 0x40))
            .append(" 40\n");
      }
      for (int l = 0; l < 8; l++) {
        b.append(Long.toHexString(base + l * 0x20L))
            .append(" 20 ")
            .append(100 + l + rnd.nextInt(3))
            .append(' ')
            .append(i % 16)
            .append('\n');
      }
    }
    return b.toString().getBytes(StandardCharsets.US_ASCII);
  }
}
