package io.symbolicate.bench.js;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;

/** Locates and reads the benchmark inputs from ../bench-data/js (never committed). */
final class JsBenchInputs {
  private JsBenchInputs() {}

  static Path dir() {
    return Paths.get(System.getProperty("bench.js.dir", "../bench-data/js"));
  }

  static byte[] map(String name) throws IOException {
    Path p = dir().resolve(name + ".min.js.map");
    if (!Files.isRegularFile(p)) {
      throw new IOException(
          p.toAbsolutePath()
              + " not found: run ../shared/bench/js-maps.sh"
              + " or pass -Dbench.js.dir=DIR");
    }
    return Files.readAllBytes(p);
  }

  /** lookups.tsv: 1-based line, 0-based UTF-16 column; returns {lines0, columns}. */
  static int[][] lookups(String name) throws IOException {
    int[] lines = new int[1 << 20];
    int[] cols = new int[1 << 20];
    int n = 0;
    try (BufferedReader r = Files.newBufferedReader(dir().resolve(name + ".lookups.tsv"))) {
      String s;
      while ((s = r.readLine()) != null) {
        int tab = s.indexOf('\t');
        if (n == lines.length) {
          lines = Arrays.copyOf(lines, n * 2);
          cols = Arrays.copyOf(cols, n * 2);
        }
        lines[n] = Integer.parseInt(s, 0, tab, 10) - 1;
        cols[n] = Integer.parseInt(s, tab + 1, s.length(), 10);
        n++;
      }
    }
    return new int[][] {Arrays.copyOf(lines, n), Arrays.copyOf(cols, n)};
  }
}
