package io.symbolicate.symbols.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

/** Sections inflated off the heap (as a big debug file's are) give the same bytes and checks. */
class SectionDecompressorTest {
  private static byte[] data(int n) {
    byte[] b = new byte[n];
    Random r = new Random(44);
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (r.nextInt(16) + 'a'); // compresses about 2:1, as debug info does
    }
    return b;
  }

  private static ByteBuffer zlib(byte[] in) {
    Deflater d = new Deflater();
    d.setInput(in);
    d.finish();
    byte[] out = new byte[in.length + 1024];
    int n = d.deflate(out);
    d.end();
    return ByteBuffer.wrap(out, 0, n).slice();
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  @Test
  void offHeapZlibAndZstdEqualTheHeapCopies() {
    byte[] in = data(3_000_000);
    ByteBuffer z = zlib(in);
    ByteBuffer direct = SectionDecompressor.zlibBuffer(z, in.length, ".debug_info", 0);
    assertThat(direct.isDirect()).isTrue();
    assertThat(bytes(direct)).isEqualTo(in);
    assertThat(SectionDecompressor.zlibBuffer(z, in.length, ".debug_info", in.length).isDirect())
        .isFalse();
    ByteBuffer zs = ByteBuffer.wrap(Zstd.compress(in));
    ByteBuffer directZstd = SectionDecompressor.zstdBuffer(zs, in.length, ".debug_info", 0);
    assertThat(directZstd.isDirect()).isTrue();
    assertThat(bytes(directZstd)).isEqualTo(in);
  }

  @Test
  void offHeapSizesAreCheckedAsOnTheHeap() {
    byte[] in = data(200_000);
    ByteBuffer z = zlib(in);
    // a buffer that must grow past its first guess (4 times the compressed size)
    assertThatThrownBy(() -> SectionDecompressor.zlibBuffer(z, in.length + 1_000_000L, "s", 0))
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("fewer than its declared");
    assertThatThrownBy(() -> SectionDecompressor.zlibBuffer(z, in.length - 1, "s", 0))
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("beyond its declared size");
    ByteBuffer zs = ByteBuffer.wrap(Zstd.compress(in));
    assertThatThrownBy(() -> SectionDecompressor.zstdBuffer(zs, in.length - 1, "s", 0))
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("beyond its declared size");
    assertThatThrownBy(() -> SectionDecompressor.zlibBuffer(z, 1L << 40, "s", 0))
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("over the limit");
  }
}
