package io.symbolicate.symbols.io;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * An LZX compressor for test cabinets, written from the format's description: greedy matches
 * (repeated offsets first) in verbatim, aligned-offset and uncompressed blocks as a plan says, code
 * lengths sent through the pretree with its zero and same-length runs, the E8 header, and the
 * stream realigned after every 32 KiB frame, each frame one data block. No match crosses a frame.
 * It does not translate E8 operands itself: the expected output of its cabinets is what {@code
 * cabextract} (the peer) extracted from them, not its input (see {@link LzxCabs}).
 */
final class LzxWriter {
  /** One block of the plan: its type (1 verbatim, 2 aligned, 3 uncompressed) and size. */
  record Block(int type, int size) {}

  /** The compressed bytes of each frame, and each frame's output size. */
  record Frames(List<byte[]> data, List<Integer> sizes) {}

  private static final int FRAME = 32768;
  private static final int[] EXTRA = new int[52];
  private static final int[] BASE = new int[52];

  static {
    for (int i = 0, j = 0; i < 52; i += 2) {
      EXTRA[i] = j;
      EXTRA[i + 1] = j;
      if (i != 0 && j < 17) {
        j++;
      }
    }
    for (int i = 0, b = 0; i < 52; i++) {
      BASE[i] = b;
      b += 1 << EXTRA[i];
    }
  }

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private int word;
  private int wordBits;
  private final List<Integer> cuts = new ArrayList<>();

  private LzxWriter() {}

  static Frames compress(
      byte[] data, int windowBits, int intelSize, List<Block> plan, int maxDistance) {
    return new LzxWriter().run(data, windowBits, intelSize, plan, maxDistance);
  }

  private Frames run(byte[] data, int windowBits, int intelSize, List<Block> plan, int maxDist) {
    int slots =
        switch (windowBits) {
          case 15 -> 30;
          case 16 -> 32;
          case 17 -> 34;
          case 18 -> 36;
          case 19 -> 38;
          case 20 -> 42;
          default -> 50;
        };
    int mainSymbols = 256 + slots * 8;
    int[] mainPrev = new int[mainSymbols];
    int[] lenPrev = new int[249];
    int[] r = {1, 1, 1};
    if (intelSize != 0) {
      bits(1, 1);
      bits(intelSize >>> 16, 16);
      bits(intelSize & 0xffff, 16);
    } else {
      bits(0, 1);
    }
    int[] head = new int[1 << 16];
    Arrays.fill(head, -1);
    int[] prev = new int[data.length];
    int inserted = 0;
    int pos = 0;
    int frameEnd = FRAME;
    int b = 0;
    while (pos < data.length) {
      Block blk = plan.get(b++ % plan.size());
      int len = Math.min(blk.size(), data.length - pos);
      int blockEnd = pos + len;
      bits(blk.type(), 3);
      bits(len >>> 8, 16);
      bits(len & 0xff, 8);
      if (blk.type() == 3) {
        if (wordBits > 0) {
          bits(0, 16 - wordBits);
        } else {
          bits(0, 16);
        }
        for (int v : r) {
          raw(v);
          raw(v >>> 8);
          raw(v >>> 16);
          raw(v >>> 24);
        }
        while (pos < blockEnd) {
          raw(data[pos++]);
          if (pos == frameEnd && pos < data.length) {
            cuts.add(out.size());
            frameEnd += FRAME;
          }
        }
        if ((len & 1) == 1) {
          raw(0);
        }
        continue;
      }
      // parse the block: {main symbol, length symbol or -1, slot, footer, bytes}
      List<int[]> elems = new ArrayList<>();
      int p = pos;
      while (p < blockEnd) {
        while (inserted + 2 < data.length && inserted <= p) {
          int h = hash(data, inserted);
          prev[inserted] = head[h];
          head[h] = inserted++;
        }
        int cap = Math.min(257, Math.min(blockEnd - p, (p / FRAME + 1) * FRAME - p));
        int bestLen = 0;
        int bestOff = 0;
        int rep = -1;
        for (int k = 0; k < 3; k++) {
          int l = matchLength(data, p, r[k], cap);
          if (l >= 3 && l > bestLen) {
            bestLen = l;
            bestOff = r[k];
            rep = k;
          }
        }
        if (p + 2 < data.length) {
          int c = prev[p];
          for (int tries = 0; c >= 0 && tries < 48 && p - c <= maxDist; tries++, c = prev[c]) {
            int l = matchLength(data, p, p - c, cap);
            if (l > bestLen + 1) {
              bestLen = l;
              bestOff = p - c;
              rep = -1;
            }
          }
        }
        if (bestLen < 3) {
          elems.add(new int[] {data[p] & 0xff, -1, 0, 0, 1});
          p++;
          continue;
        }
        int slot;
        int footer = 0;
        if (rep == 0) {
          slot = 0;
        } else if (rep == 1) {
          slot = 1;
          r[1] = r[0];
          r[0] = bestOff;
        } else if (rep == 2) {
          slot = 2;
          r[2] = r[0];
          r[0] = bestOff;
        } else {
          int f = bestOff + 2;
          slot = slots - 1;
          while (BASE[slot] > f) {
            slot--;
          }
          footer = f - BASE[slot];
          r[2] = r[1];
          r[1] = r[0];
          r[0] = bestOff;
        }
        int lh = Math.min(bestLen - 2, 7);
        int ls = bestLen - 2 >= 7 ? bestLen - 2 - 7 : -1;
        elems.add(new int[] {256 + slot * 8 + lh, ls, slot, footer, bestLen});
        p += bestLen;
      }
      int[] mainFreq = new int[mainSymbols];
      int[] lenFreq = new int[249];
      int[] alFreq = new int[8];
      for (int[] e : elems) {
        mainFreq[e[0]]++;
        if (e[1] >= 0) {
          lenFreq[e[1]]++;
        }
        if (e[0] >= 256 && e[2] >= 3 && EXTRA[e[2]] >= 3) {
          alFreq[e[3] & 7]++;
        }
      }
      boolean aligned = blk.type() == 2;
      int[] mainLens = lengths(mainFreq, 16);
      int[] lenLens = lengths(lenFreq, 16);
      int[] alLens = lengths(alFreq, 7);
      if (aligned) {
        for (int l : alLens) {
          bits(l, 3);
        }
      }
      writeLengths(mainPrev, mainLens, 0, 256);
      writeLengths(mainPrev, mainLens, 256, mainSymbols);
      writeLengths(lenPrev, lenLens, 0, 249);
      int[] mainCodes = codes(mainLens);
      int[] lenCodes = codes(lenLens);
      int[] alCodes = codes(alLens);
      for (int[] e : elems) {
        bits(mainCodes[e[0]], mainLens[e[0]]);
        if (e[0] >= 256) {
          if (e[1] >= 0) {
            bits(lenCodes[e[1]], lenLens[e[1]]);
          }
          int slot = e[2];
          if (slot >= 3) {
            int extra = EXTRA[slot];
            if (aligned && extra >= 3) {
              bits(e[3] >>> 3, extra - 3);
              bits(alCodes[e[3] & 7], alLens[e[3] & 7]);
            } else {
              bits(e[3], extra);
            }
          }
        }
        pos += e[4];
        if (pos == frameEnd && pos < data.length) {
          if (wordBits > 0) {
            bits(0, 16 - wordBits);
          }
          cuts.add(out.size());
          frameEnd += FRAME;
        }
      }
    }
    if (wordBits > 0) {
      bits(0, 16 - wordBits);
    }
    byte[] all = out.toByteArray();
    List<byte[]> frames = new ArrayList<>();
    List<Integer> sizes = new ArrayList<>();
    int from = 0;
    for (int i = 0; i <= cuts.size(); i++) {
      int to = i < cuts.size() ? cuts.get(i) : all.length;
      frames.add(Arrays.copyOfRange(all, from, to));
      sizes.add(i < cuts.size() ? FRAME : data.length - FRAME * cuts.size());
      from = to;
    }
    return new Frames(frames, sizes);
  }

  private static int hash(byte[] d, int i) {
    return ((d[i] & 0xff) << 8 ^ (d[i + 1] & 0xff) << 4 ^ (d[i + 2] & 0xff) * 31) & 0xffff;
  }

  private static int matchLength(byte[] d, int p, int off, int cap) {
    if (off <= 0 || off > p) {
      return 0;
    }
    int l = 0;
    while (l < cap && d[p + l] == d[p - off + l]) {
      l++;
    }
    return l;
  }

  /** Code lengths through the pretree: deltas, runs of zeros (17, 18), same-length runs (19). */
  private void writeLengths(int[] prev, int[] cur, int first, int last) {
    List<int[]> tokens = new ArrayList<>(); // {symbol, extra value, extra bits, inner symbol}
    int x = first;
    while (x < last) {
      int run = 1;
      while (x + run < last && cur[x + run] == cur[x]) {
        run++;
      }
      if (cur[x] == 0 && run >= 20) {
        int n = Math.min(run, 51);
        tokens.add(new int[] {18, n - 20, 5, -1});
        x += n;
      } else if (cur[x] == 0 && run >= 4) {
        int n = Math.min(run, 19);
        tokens.add(new int[] {17, n - 4, 4, -1});
        x += n;
      } else if (run >= 4) {
        int n = Math.min(run, 5);
        tokens.add(new int[] {19, n - 4, 1, (prev[x] - cur[x] + 17) % 17});
        x += n;
      } else {
        tokens.add(new int[] {(prev[x] - cur[x] + 17) % 17, 0, 0, -1});
        x++;
      }
    }
    int[] freq = new int[20];
    for (int[] t : tokens) {
      freq[t[0]]++;
      if (t[3] >= 0) {
        freq[t[3]]++;
      }
    }
    int[] lens = lengths(freq, 15);
    int[] codes = codes(lens);
    for (int l : lens) {
      bits(l, 4);
    }
    for (int[] t : tokens) {
      bits(codes[t[0]], lens[t[0]]);
      bits(t[1], t[2]);
      if (t[3] >= 0) {
        bits(codes[t[3]], lens[t[3]]);
      }
    }
    System.arraycopy(cur, first, prev, first, last - first);
  }

  /** Huffman code lengths of at most {@code limit} bits; at least two symbols get a code. */
  static int[] lengths(int[] freq, int limit) {
    int[] f = freq.clone();
    int used = 0;
    for (int v : f) {
      used += v > 0 ? 1 : 0;
    }
    for (int i = 0; used < 2; i++) {
      if (f[i] == 0) {
        f[i] = 1;
        used++;
      }
    }
    while (true) {
      int n = f.length;
      int[] parent = new int[2 * n];
      PriorityQueue<long[]> q = new PriorityQueue<>((a, c) -> Long.compare(a[0], c[0]));
      for (int i = 0; i < n; i++) {
        if (f[i] > 0) {
          q.add(new long[] {(long) f[i] << 20 | i, i});
        }
      }
      int next = n;
      while (q.size() > 1) {
        long[] a = q.poll();
        long[] c = q.poll();
        parent[(int) a[1]] = next;
        parent[(int) c[1]] = next;
        q.add(new long[] {((a[0] >>> 20) + (c[0] >>> 20)) << 20 | next, next});
        next++;
      }
      int root = next - 1;
      int[] lens = new int[n];
      int max = 0;
      for (int i = 0; i < n; i++) {
        if (f[i] > 0) {
          int d = 0;
          for (int k = i; k != root; k = parent[k]) {
            d++;
          }
          lens[i] = d;
          max = Math.max(max, d);
        }
      }
      if (max <= limit) {
        return lens;
      }
      for (int i = 0; i < n; i++) {
        f[i] = f[i] == 0 ? 0 : (f[i] + 1) / 2;
      }
    }
  }

  /** Canonical codes: shorter first, then by symbol. */
  static int[] codes(int[] lens) {
    int[] codes = new int[lens.length];
    int code = 0;
    for (int len = 1; len <= 16; len++) {
      for (int s = 0; s < lens.length; s++) {
        if (lens[s] == len) {
          codes[s] = code++;
        }
      }
      code <<= 1;
    }
    return codes;
  }

  private void bits(int v, int n) {
    for (int i = n - 1; i >= 0; i--) {
      word = (word << 1) | ((v >>> i) & 1);
      if (++wordBits == 16) {
        out.write(word & 0xff);
        out.write((word >>> 8) & 0xff);
        word = 0;
        wordBits = 0;
      }
    }
  }

  private void raw(int v) {
    out.write(v & 0xff);
  }
}
