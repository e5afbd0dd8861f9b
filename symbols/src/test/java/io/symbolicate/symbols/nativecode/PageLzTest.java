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
    byte[] names = "std::vector<ceph::buffer::v15_2_0::ptr, std::allocator<ceph::buffer::ptr> >::size()\n"
        .repeat(2000).getBytes(StandardCharsets.US_ASCII);
    byte[] packed = roundTrip(names);
    assertThat(packed.length).isLessThan(names.length / 20);
  }

  @Test
  void rejectsCorruptInput() {
    byte[] data = "abcdefghabcdefghabcdefghabcdefgh-abcdefghabcdefgh".repeat(50)
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
}
