package io.symbolicate.symbols.io;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SizesTest {
  @Test
  void bytesKilobytesAndMegabytesRoundedDown() {
    assertThat(Sizes.of(512)).isEqualTo("512 bytes");
    assertThat(Sizes.of(1023)).isEqualTo("1023 bytes");
    assertThat(Sizes.of(200 << 10)).isEqualTo("200 KB");
    assertThat(Sizes.of((128L << 20) + 5)).isEqualTo("128 MB");
  }
}
