package io.symbolicate.symbols.pdb;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * OMAP address translation of a PDB whose image was rewritten after linking (reordered functions
 * or basic blocks, injected code: Syzygy, BBT): the {@code omap_to_src} stream maps image
 * (transformed) RVAs back to the linker's (original) ones, {@code omap_from_src} the other way;
 * each is a sorted table of (rva, rva) pairs whose lengths are the distance to the next entry.
 * Symbols, lines and frame data in the PDB keep original RVAs; a {@code .sym} needs image ones.
 *
 * <p>{@link #map} translates an original range into the image ranges it became as Breakpad's
 * {@code dump_syms.exe} does ({@code common/windows/omap.cc}): the tables are merged into
 * mapped ranges, each with the injected bytes that follow it in the image and the original
 * bytes removed after it; the ranges that meet the query are clipped to it and, in image order,
 * joined where only injected bytes lie between them. A query range that was removed entirely
 * maps to nothing. Without OMAP streams the map is the identity.
 */
public final class PdbOmap {
  static final int DBG_OMAP_TO_SRC = 3;
  static final int DBG_OMAP_FROM_SRC = 4;

  /** One mapped range: original and image start, length, injected and removed bytes after. */
  private static final class Range {
    long original;
    long image;
    long length;
    long injected;
    long removed;

    Range(long original, long image, long length) {
      this.original = original;
      this.image = image;
      this.length = length;
    }

    Range copy() {
      Range r = new Range(original, image, length);
      r.injected = injected;
      r.removed = removed;
      return r;
    }
  }

  /**
   * Mapped ranges all queries together may meet, per range of the map (plus a floor): a real
   * image meets each range a few times (its function, lines, frame data); tables whose ranges
   * all overlap would make the work quadratic.
   */
  static final long VISITS_PER_RANGE = 16;

  static final long MIN_VISITS = 1 << 16;

  private static final PdbOmap IDENTITY = new PdbOmap(new Range[0], new long[0], new long[0]);

  private final Range[] ranges; // by original address, then length
  private final long[] maxEnd; // the largest original end (content + removed) of ranges[0..i]
  private final long[] fromStarts; // omap_from_src's original addresses, for publics
  private final long budget;
  private long work;

  private PdbOmap(Range[] ranges, long[] maxEnd, long[] fromStarts) {
    this.ranges = ranges;
    this.maxEnd = maxEnd;
    this.fromStarts = fromStarts;
    this.budget = MIN_VISITS + VISITS_PER_RANGE * ranges.length;
  }

  /** The PDB's OMAP, or the identity when it has no (or an empty) {@code omap_to_src} or {@code omap_from_src}. */
  public static PdbOmap of(PdbFile pdb) {
    int toStream = pdb.debugStream(DBG_OMAP_TO_SRC);
    int fromStream = pdb.debugStream(DBG_OMAP_FROM_SRC);
    if (toStream < 0 || fromStream < 0) {
      return IDENTITY;
    }
    long[] to = table(pdb.msf(), toStream, "omap_to_src stream");
    long[] from = table(pdb.msf(), fromStream, "omap_from_src stream");
    if (to.length == 0 || from.length == 0) {
      return IDENTITY;
    }
    return build(to, from, pdb.originalImageLength());
  }

  /** A stream of (u32, u32) pairs as one array, the pairs' fields alternating. */
  private static long[] table(MsfFile msf, int stream, String what) {
    ByteBuffer b = msf.stream(stream, what);
    long[] t = new long[(b.limit() / 8) * 2];
    for (int i = 0; i < t.length; i++) {
      t[i] = b.getInt(4 * i) & 0xffffffffL;
    }
    return t;
  }

  static PdbOmap build(long[] to, long[] from, long originalLength) {
    List<Range> list = new ArrayList<>();
    int toCount = to.length / 2;
    // the image's start (headers), which the tables usually leave out
    if (to[0] > 0 && from[0] > 0) {
      long header = Math.min(to[0], from[0]);
      Range r = new Range(0, 0, header);
      r.injected = to[0] - header;
      r.removed = from[0] - header;
      list.add(r);
    }
    for (int i = 0; i < toCount; i++) {
      long image = to[2 * i];
      long original = to[2 * i + 1];
      if (original >= originalLength) {
        continue; // injected code that maps to nothing of the original image
      }
      long length;
      if (i + 1 < toCount) {
        length = Math.max(0, to[2 * i + 2] - image);
        length = Math.min(length, originalLength - original);
      } else {
        length = originalLength - original;
      }
      if (length == 0) {
        continue;
      }
      if (!list.isEmpty()) {
        Range prev = list.get(list.size() - 1);
        prev.injected += Math.max(0, image - (prev.image + prev.length));
      }
      list.add(new Range(original, image, length));
    }
    list.sort(Comparator.<Range>comparingLong(r -> r.original).thenComparingLong(r -> r.length));
    Range[] ranges = list.toArray(Range[]::new);
    fillRemoved(ranges);
    long[] maxEnd = new long[ranges.length];
    long m = 0;
    for (int i = 0; i < ranges.length; i++) {
      m = Math.max(m, ranges[i].original + ranges[i].length + ranges[i].removed);
      maxEnd[i] = m;
    }
    long[] fromStarts = new long[from.length / 2];
    for (int i = 0; i < fromStarts.length; i++) {
      fromStarts[i] = from[2 * i];
      if (i > 0 && fromStarts[i] <= fromStarts[i - 1]) {
        fromStarts = new long[0]; // unsorted: no stepping through blocks, as Breakpad
        break;
      }
    }
    return new PdbOmap(ranges, maxEnd, fromStarts);
  }

  /** Marks the ranges that end where a gap of the original image starts with the gap's length. */
  private static void fillRemoved(Range[] ranges) {
    int fill = 0;
    long front = 0;
    for (int find = 0; find < ranges.length; find++) {
      if (front < ranges[find].original) {
        long removed = ranges[find].original - front;
        for (; fill < find; fill++) {
          if (ranges[fill].original + ranges[fill].length == front) {
            ranges[fill].removed = removed;
          }
        }
      }
      front = ranges[find].original + ranges[find].length;
    }
  }

  public boolean isIdentity() {
    return ranges.length == 0;
  }

  /**
   * The image ranges ({rva, length} pairs) an original range became, in image order; a query of
   * length 0 gives the image addresses its byte went to, each with length 0.
   */
  public List<long[]> map(long rva, long length) {
    List<long[]> out = new ArrayList<>();
    if (ranges.length == 0) {
      out.add(new long[] {rva, length});
      return out;
    }
    long start = rva;
    long end = rva + Math.max(1, length);
    // the first range whose original extent (content + removed) reaches past the start
    int lo = 0;
    int hi = ranges.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (maxEnd[mid] > start) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    List<Range> hits = new ArrayList<>();
    for (int i = lo; i < ranges.length && ranges[i].original < end; i++) {
      Range c = ranges[i];
      if (c.original + c.length + c.removed <= start) {
        continue;
      }
      if (++work > budget) {
        throw new PdbFormatException(
            "OMAP: the mapped ranges overlap past "
                + budget
                + " range visits (at original range 0x"
                + Long.toHexString(rva)
                + ")");
      }
      Range r = c.copy();
      clip(start, end, r);
      if (r.length + r.injected > 0) {
        hits.add(r);
      }
    }
    if (hits.isEmpty()) {
      return out;
    }
    hits.sort(Comparator.<Range>comparingLong(r -> r.image).thenComparingLong(r -> r.length));
    if (length == 0) {
      out.add(new long[] {hits.get(0).image, 0});
      for (int i = 1; i < hits.size(); i++) {
        if (hits.get(i).image > out.get(out.size() - 1)[0]) {
          out.add(new long[] {hits.get(i).image, 0});
        }
      }
      return out;
    }
    long begin = hits.get(0).image;
    long content = begin + hits.get(0).length;
    long injected = content + hits.get(0).injected;
    for (int i = 1; i < hits.size(); i++) {
      Range r = hits.get(i);
      if (injected < r.image) {
        if (begin < content) {
          out.add(new long[] {begin, content - begin});
        }
        begin = r.image;
      }
      content = r.image + r.length;
      injected = content + r.injected;
    }
    if (begin < content) {
      out.add(new long[] {begin, content - begin});
    }
    return out;
  }

  /** Cuts a mapped range to the original range [start, end), as Breakpad clips it. */
  private static void clip(long start, long end, Range r) {
    if (end <= r.original || r.original + r.length + r.removed <= start) {
      r.length = 0;
      r.injected = 0;
      r.removed = 0;
      return;
    }
    if (r.original < start) {
      long left = start - r.original;
      r.original += left;
      r.image += left;
      if (left > r.length) {
        long trim = left - r.length;
        r.length = 0;
        r.injected -= Math.min(trim, r.injected);
        r.removed -= trim;
      } else {
        r.length -= left;
      }
    }
    long endOriginal = r.original + r.length;
    if (end < endOriginal) {
      r.length -= endOriginal - end;
      r.injected = 0;
      r.removed = 0;
    } else {
      if (end < endOriginal + r.removed) {
        r.removed = end - endOriginal;
      }
      if (end < endOriginal + r.injected) {
        r.injected = end - endOriginal;
      }
    }
  }

  /**
   * The start of the {@code omap_from_src} block after the one that starts exactly at {@code
   * rva}, or -1 (Breakpad steps a public symbol through its blocks this way).
   */
  public long nextBlock(long rva) {
    int i = Arrays.binarySearch(fromStarts, rva);
    if (i < 0 || i + 1 >= fromStarts.length || fromStarts[i + 1] <= rva) {
      return -1;
    }
    return fromStarts[i + 1];
  }
}
