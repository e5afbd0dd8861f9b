package io.symbolicate.symbols.nativecode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PageLzTest {
  private static byte[] roundTrip(byte[] data) {
    ByteWriter out = new ByteWriter(16);
    new PageLz().compress(data, data.length, out);
    byte[] packed = out.toByteArray();
    byte[] back = PageLz.decompress(packed, 0, packed.length, data.length);
    assertThat(back).isEqualTo(data);
    return packed;
  }

  @Test
  void roundTripsRandomRepetitiveAndTinyInputs() {
    Random r = new Random(1);
    for (int n : new int[] {0, 1, 5, 12, 13, 100, 4096, 70_000, 300_000}) {
      byte[] random = new byte[n];
      r.nextBytes(random);
      roundTrip(random);
      byte[] runs = new byte[n];
      for (int i = 0; i < n; i++) {
        runs[i] = (byte) ((i / 97) % 3);
      }
      roundTrip(runs);
    }
    byte[] names =
        "std::vector<ceph::buffer::v15_2_0::ptr, std::allocator<ceph::buffer::ptr> >::size()\n"
            .repeat(2000)
            .getBytes(StandardCharsets.US_ASCII);
    byte[] packed = roundTrip(names);
    assertThat(packed.length).isLessThan(names.length / 20);
  }

  @Test
  void rejectsCorruptInput() {
    byte[] data =
        "abcdefghabcdefghabcdefghabcdefgh-abcdefghabcdefgh"
            .repeat(50)
            .getBytes(StandardCharsets.US_ASCII);
    ByteWriter out = new ByteWriter(16);
    new PageLz().compress(data, data.length, out);
    byte[] packed = out.toByteArray();
    assertThatThrownBy(() -> PageLz.decompress(packed, 0, packed.length / 2, data.length))
        .isInstanceOf(CorruptTableException.class);
    assertThatThrownBy(() -> PageLz.decompress(packed, 0, packed.length, data.length + 10))
        .isInstanceOf(CorruptTableException.class);
    byte[] bad = Arrays.copyOf(packed, packed.length);
    bad[0] = (byte) 0x0F; // no literals, then a match reaching before the start
    assertThatThrownBy(() -> PageLz.decompress(bad, 0, bad.length, data.length))
        .isInstanceOf(CorruptTableException.class);
  }

  /**
   * The encoder's bytes are part of the table format's identity (tables converted before and
   * after a speed-up must be equal, docs/native.md): they must equal this plain, byte-at-a-time
   * statement of the same greedy rules, on inputs that hit every branch (long and short
   * literal runs, matches ending in the 8-byte and in the byte loop, matches up to the tail,
   * the 64 KB window, incompressible stretches), also after a header already in the writer.
   */
  @Test
  void writesExactlyTheReferenceEncoding() {
    Random r = new Random(7);
    byte[] words =
        "std::basic_string<char> ceph::buffer::list::iterator operator() const "
            .getBytes(StandardCharsets.US_ASCII);
    for (int n :
        new int[] {0, 1, 11, 12, 13, 16, 17, 20, 31, 64, 100, 1000, 65_536, 70_000, 200_000}) {
      for (int kind = 0; kind < 4; kind++) {
        byte[] data = new byte[n];
        for (int i = 0; i < n; i++) {
          data[i] =
              switch (kind) {
                case 0 -> (byte) r.nextInt(256);
                case 1 -> words[(i * 7 + (i / 300)) % words.length];
                case 2 -> r.nextInt(40) == 0 ? (byte) r.nextInt(256) : words[i % words.length];
                default -> (byte) ((i / 5000) % 2 == 0 ? r.nextInt(4) : i % 251);
              };
        }
        ByteWriter out = new ByteWriter(16);
        out.writeByte(0xAB); // a page header before the body
        new PageLz().compress(data, data.length, out);
        byte[] expected = referenceEncoding(data, n, n);
        assertThat(Arrays.copyOfRange(out.toByteArray(), 1, out.size()))
            .as("n=%d kind=%d", n, kind)
            .isEqualTo(expected);
        assertThat(out.size() - 1).isLessThanOrEqualTo(PageLz.maxCompressed(n));
        assertThat(PageLz.decompress(expected, 0, expected.length, n)).isEqualTo(data);
      }
    }
  }

  /**
   * A region given as literals (a page's FUNC bodies): no match starts in it, the skipping
   * through literals starts over after it, and the bytes are those of the reference rules with
   * the region; regions anywhere (start, middle, end, empty, the whole input, past the tail).
   */
  @Test
  void aLiteralRegionHasNoMatchStartsAndFollowsTheReferenceRules() {
    Random r = new Random(11);
    byte[] words =
        "ceph::buffer::list::iterator_impl<true>::copy(unsigned int, char*) "
            .getBytes(StandardCharsets.US_ASCII);
    for (int n : new int[] {0, 13, 100, 4096, 70_000, 200_000}) {
      byte[] data = new byte[n];
      for (int i = 0; i < n; i++) {
        data[i] =
            (i / 3000) % 3 == 1 ? (byte) r.nextInt(8) : words[(i * 3 + i / 500) % words.length];
      }
      int[][] regions = {
        {0, n / 3},
        {n / 3, 2 * n / 3},
        {2 * n / 3, n},
        {n / 2, n / 2},
        {0, n},
        {Math.max(0, n - 5), n}
      };
      for (int[] g : regions) {
        ByteWriter out = new ByteWriter(16);
        new PageLz().compress(data, n, out, g[0], g[1]);
        byte[] packed = out.toByteArray();
        assertThat(packed)
            .as("n=%d region %d-%d", n, g[0], g[1])
            .isEqualTo(referenceEncoding(data, g[0], g[1]));
        assertThat(PageLz.decompress(packed, 0, packed.length, n)).isEqualTo(data);
        assertThat(packed.length).isLessThanOrEqualTo(PageLz.maxCompressed(n));
      }
      if (n >= 4096) {
        // the same data, its middle third as literals: that third is copied as it is, no more
        ByteWriter whole = new ByteWriter(16);
        new PageLz().compress(data, n, whole);
        ByteWriter cut = new ByteWriter(16);
        new PageLz().compress(data, n, cut, n / 3, 2 * n / 3);
        assertThat(cut.size()).isGreaterThan(whole.size());
        assertThat(cut.size()).isLessThan(whole.size() + n / 3 + n / 100);
      }
    }
  }

  /** The encoding rules one step at a time, for {@link #writesExactlyTheReferenceEncoding}. */
  private static byte[] referenceEncoding(byte[] src, int litFrom, int litTo) {
    int[] table = new int[1 << 14];
    ByteWriter out = new ByteWriter(16);
    int anchor = 0;
    int since = 0;
    int i = 0;
    int limit = src.length - 12;
    while (i < limit) {
      int seq = le32(src, i);
      int h = (seq * -1640531535) >>> 18;
      int ref = table[h] - 1;
      table[h] = i + 1;
      if (ref < 0 || i - ref > 65535 || le32(src, ref) != seq) {
        i += 1 + ((i - since) >>> 3);
        if (litFrom <= i && i < litTo) {
          i = litTo;
          since = litTo;
        }
        continue;
      }
      int m = 4;
      while (m < limit - i && src[ref + m] == src[i + m]) {
        m++;
      }
      int lit = i - anchor;
      out.writeByte((Math.min(lit, 15) << 4) | Math.min(m - 4, 15));
      if (lit >= 15) {
        out.writeVar(lit - 15);
      }
      out.writeBytes(src, anchor, lit);
      out.writeByte((i - ref) & 0xFF);
      out.writeByte((i - ref) >>> 8);
      if (m - 4 >= 15) {
        out.writeVar(m - 4 - 15);
      }
      i += m;
      anchor = i;
      since = i;
      if (litFrom <= i && i < litTo) {
        i = litTo;
        since = litTo;
      }
      if (i < limit) {
        table[(le32(src, i - 2) * -1640531535) >>> 18] = i - 1;
      }
    }
    int lit = src.length - anchor;
    out.writeByte(Math.min(lit, 15) << 4);
    if (lit >= 15) {
      out.writeVar(lit - 15);
    }
    out.writeBytes(src, anchor, lit);
    return out.toByteArray();
  }

  private static int le32(byte[] b, int i) {
    return (b[i] & 0xFF)
        | (b[i + 1] & 0xFF) << 8
        | (b[i + 2] & 0xFF) << 16
        | (b[i + 3] & 0xFF) << 24;
  }
}
