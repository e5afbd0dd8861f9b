package io.symbolicate.symbols.io;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

/**
 * The LZX cabinets of {@link LzxCabFileTest}, made by {@link LzxWriter} from seeded content.
 * {@code main} writes them to a folder, for {@code cabextract} to extract (the peer: the test's
 * expected digests are of what it extracted).
 */
final class LzxCabs {
  private LzxCabs() {}

  /** A case: its name, and the cabinet's bytes. */
  record Case(String name, byte[] cab) {}

  static List<Case> all() {
    return List.of(
        new Case(
            "verbatim-w16",
            lzx(text(100_000, 1), 16, 0, List.of(new LzxWriter.Block(1, 1 << 20)), 65533)),
        new Case(
            "mixed-w21-e8",
            lzx(
                code(180_000, 2),
                21,
                12_000_000,
                List.of(
                    new LzxWriter.Block(1, 20_000),
                    new LzxWriter.Block(2, 30_000),
                    new LzxWriter.Block(3, 7_001),
                    new LzxWriter.Block(2, 50_000),
                    new LzxWriter.Block(3, 40_000)),
                (1 << 21) - 3)),
        new Case(
            "aligned-w15-wraps",
            lzx(text(230_000, 3), 15, 0, List.of(new LzxWriter.Block(2, 65_536)), 32765)),
        new Case(
            "uncompressed-odd", lzx(text(9, 4), 17, 0, List.of(new LzxWriter.Block(3, 9)), 10)),
        new Case(
            "e8-small-file",
            lzx(code(40_000, 5), 16, 50_000, List.of(new LzxWriter.Block(1, 33_000)), 65533)));
  }

  static byte[] lzx(
      byte[] content, int windowBits, int intel, List<LzxWriter.Block> plan, int maxDist) {
    LzxWriter.Frames f = LzxWriter.compress(content, windowBits, intel, plan, maxDist);
    return CabBytes.cab("a.pdb", content.length, f.data(), f.sizes(), 3 | windowBits << 8);
  }

  /** Words from a small vocabulary, with long repeats at every distance. */
  static byte[] text(int n, long seed) {
    Random r = new Random(seed);
    String[] words = {"symbol", "frame ", "PDB ", "\n", "0x", "lzx", "cabinet ", "e8", "; "};
    byte[] out = new byte[n];
    int i = 0;
    while (i < n) {
      if (i > 1000 && r.nextInt(4) == 0) {
        int from = r.nextInt(i - 10);
        int len = Math.min(n - i, 3 + r.nextInt(600));
        for (int k = 0; k < len; k++) {
          out[i + k] = out[from + k];
        }
        i += len;
      } else {
        byte[] w = words[r.nextInt(words.length)].getBytes();
        for (int k = 0; k < w.length && i < n; k++) {
          out[i++] = w[k];
        }
        if (r.nextInt(50) == 0 && i < n) {
          out[i++] = (byte) r.nextInt();
        }
      }
    }
    return out;
  }

  /** Machine-code-like bytes: many {@code E8} calls with operands near and far. */
  static byte[] code(int n, long seed) {
    Random r = new Random(seed);
    byte[] out = text(n, seed);
    for (int i = 0; i + 5 < n; i += 7 + r.nextInt(40)) {
      out[i] = (byte) 0xe8;
      int v = r.nextInt(3) == 0 ? r.nextInt() : r.nextInt(200_000) - 100_000;
      out[i + 1] = (byte) v;
      out[i + 2] = (byte) (v >> 8);
      out[i + 3] = (byte) (v >> 16);
      out[i + 4] = (byte) (v >> 24);
    }
    return out;
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    Files.createDirectories(dir);
    for (Case c : all()) {
      Files.write(dir.resolve(c.name() + ".cab"), c.cab());
    }
  }
}
