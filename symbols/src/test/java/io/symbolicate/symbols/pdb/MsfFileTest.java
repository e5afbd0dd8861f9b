package io.symbolicate.symbols.pdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Stream reads through page lists: a stream whose pages follow each other is read as a view of
 * the file, any other gathered page by page; both must give the stream's bytes.
 */
class MsfFileTest {
  private static byte[] pattern(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 31 + i / 512 + 7);
    }
    return b;
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.limit()];
    b.get(0, out);
    return out;
  }

  @Test
  void aStreamReadsTheSameThroughPagesInOrderAndOutOfOrder() {
    byte[] s = pattern(3 * 512 + 100); // four pages, the last one part full
    MsfBuilder mb = new MsfBuilder(512);
    int index = mb.add(s);
    MsfFile inOrder = MsfFile.parse(mb.build());
    // the same file with the stream's page list back to front (words: count, size, pages)
    MsfFile reversed =
        MsfFile.parse(
            mb.build(
                words -> {
                  int[] pages = Arrays.copyOfRange(words, 2, 6);
                  for (int k = 0; k < 4; k++) {
                    words[2 + k] = pages[3 - k];
                  }
                }));

    assertThat(bytes(inOrder.stream(index, "s"))).isEqualTo(s);
    assertThat(bytes(inOrder.read(index, 500, 600, "s")))
        .isEqualTo(Arrays.copyOfRange(s, 500, 1100));
    byte[] lastPage = Arrays.copyOf(Arrays.copyOfRange(s, 3 * 512, s.length), 512);
    byte[] expected = new byte[s.length];
    System.arraycopy(lastPage, 0, expected, 0, 512);
    System.arraycopy(s, 1024, expected, 512, 512);
    System.arraycopy(s, 512, expected, 1024, 512);
    System.arraycopy(s, 0, expected, 1536, 100);
    assertThat(bytes(reversed.stream(index, "s"))).isEqualTo(expected);
  }

  @Test
  void aStreamAcrossTheFreePageMapPagesSkipsThem() {
    // 600 pages of 512 bytes: pages 513 and 514 (the second interval's free page maps) lie
    // between its page 509 and 510, so its pages do not all follow each other
    byte[] s = pattern(600 * 512);
    MsfBuilder mb = new MsfBuilder(512);
    int index = mb.add(s);
    MsfFile msf = MsfFile.parse(mb.build());
    assertThat(bytes(msf.stream(index, "s"))).isEqualTo(s);
    assertThat(bytes(msf.read(index, 509 * 512 - 10, 30, "s")))
        .isEqualTo(Arrays.copyOfRange(s, 509 * 512 - 10, 509 * 512 + 20));
    assertThat(bytes(msf.read(index, 100, 200, "s"))).isEqualTo(Arrays.copyOfRange(s, 100, 300));
  }
}
