package io.symbolicate.symbols.js;

import java.util.ArrayList;
import java.util.List;

/**
 * A Metro/Hermes function map ({@code x_facebook_sources[i][0]}): the original source's function
 * starts, so the enclosing function of an original position is a greatest-lower-bound lookup.
 * Lines are 1-based and columns 0-based, as Metro writes them; entries sorted by position.
 */
public record FunctionMap(String[] names, int[] lines, int[] columns, int[] nameIndex) {

  /** The name of the function enclosing an original position (0-based line), or null. */
  public String enclosing(int line0, int column) {
    int line = line0 + 1;
    int lo = 0;
    int hi = lines.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (lines[mid] < line || lines[mid] == line && columns[mid] <= column) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return hi < 0 ? null : names[nameIndex[hi]];
  }

  /**
   * Decodes Metro's encoding: segments of base64 VLQ (column delta, name index delta[, line
   * delta]); ';' starts a new line group (column restarts at 0), where the third field moves the
   * line, which starts at 1.
   */
  static FunctionMap decode(String[] names, String mappings) throws SourceMapException {
    List<int[]> out = new ArrayList<>();
    int line = 1;
    int col = 0;
    int name = 0;
    int i = 0;
    int n = mappings.length();
    long[] f = new long[3];
    while (i < n) {
      char c = mappings.charAt(i);
      if (c == ';') {
        col = 0;
        i++;
        continue;
      }
      if (c == ',') {
        i++;
        continue;
      }
      int k = 0;
      while (i < n && mappings.charAt(i) != ',' && mappings.charAt(i) != ';') {
        if (k == 3) {
          throw new SourceMapException(
              "x_facebook_sources: function map segment with more than 3 fields");
        }
        long v = 0;
        int shift = 0;
        while (true) {
          if (i >= n) {
            throw new SourceMapException("x_facebook_sources: truncated VLQ in function map");
          }
          int d = Vlq.digit(mappings.charAt(i++));
          if (d < 0 || shift > 30) {
            throw new SourceMapException("x_facebook_sources: invalid VLQ in function map");
          }
          v |= (long) (d & 31) << shift;
          shift += 5;
          if ((d & 32) == 0) {
            break;
          }
        }
        f[k++] = (v & 1) != 0 ? -(v >>> 1) : v >>> 1;
      }
      if (k < 2) {
        throw new SourceMapException(
            "x_facebook_sources: function map segment with " + k + " fields");
      }
      col += (int) f[0];
      name += (int) f[1];
      if (k == 3) {
        line += (int) f[2];
      }
      if (name < 0 || name >= names.length || col < 0 || line < 1) {
        throw new SourceMapException("x_facebook_sources: function map entry out of range");
      }
      out.add(new int[] {line, col, name});
    }
    out.sort((a, b) -> a[0] != b[0] ? Integer.compare(a[0], b[0]) : Integer.compare(a[1], b[1]));
    int[] ls = new int[out.size()];
    int[] cs = new int[out.size()];
    int[] ns = new int[out.size()];
    for (int j = 0; j < ls.length; j++) {
      ls[j] = out.get(j)[0];
      cs[j] = out.get(j)[1];
      ns[j] = out.get(j)[2];
    }
    return new FunctionMap(names, ls, cs, ns);
  }
}
