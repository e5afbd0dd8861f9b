package io.symbolicate.symbols.dotnet;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Our side of scripts/dotnet-bench.sh: per round, parse the Portable PDB and build its line table
 * (load), then look up the given (method row, IL offset) frames. Prints the median frames per
 * second of the rounds after the first half (warm-up). Args: PDB ROUNDS REPEAT FRAMES_FILE.
 */
final class PpdbLookupProbe {
  public static void main(String[] args) throws Exception {
    byte[] data = Files.readAllBytes(Path.of(args[0]));
    int rounds = Integer.parseInt(args[1]);
    int repeat = Integer.parseInt(args[2]);
    List<int[]> frames = new ArrayList<>();
    for (String line : Files.readAllLines(Path.of(args[3]))) {
      String[] f = line.split(" ");
      frames.add(new int[] {Integer.parseInt(f[0]), Integer.parseInt(f[1])});
    }
    double[] rates = new double[rounds - rounds / 2];
    long sink = 0;
    for (int r = 0; r < rounds; r++) {
      long t0 = System.nanoTime();
      PpdbLineTable table = PpdbLineTable.build(PortablePdb.parse(data));
      long n = 0;
      for (int k = 0; k < repeat; k++) {
        for (int[] fr : frames) {
          Optional<PpdbLineTable.LineInfo> info = table.lookup(fr[0], fr[1]);
          n++;
          if (info.isPresent()) {
            sink += info.get().line();
          }
        }
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      if (r >= rounds / 2) {
        rates[r - rounds / 2] = n / seconds;
      }
    }
    Arrays.sort(rates);
    System.out.printf("%.0f %d%n", rates[rates.length / 2], sink % 7);
  }
}
