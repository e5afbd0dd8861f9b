package io.symbolicate.symbols.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.symbols.testing.EndlessInput;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class BoundedInputTest {

  @Test
  void passesPlainInputThrough() throws IOException {
    byte[] data = "MODULE Linux x86_64 ABC foo\n".getBytes(StandardCharsets.US_ASCII);
    try (InputStream in = BoundedInput.wrap(new ByteArrayInputStream(data), 1000)) {
      assertThat(in.readAllBytes()).isEqualTo(data);
    }
  }

  @Test
  void gunzipsByMagicBytes() throws IOException {
    byte[] data = "MODULE Linux x86_64 ABC foo\n".getBytes(StandardCharsets.US_ASCII);
    try (InputStream in = BoundedInput.wrap(new ByteArrayInputStream(gzip(data, 1)), 1000)) {
      assertThat(in.readAllBytes()).isEqualTo(data);
    }
  }

  @Test
  void capsDecompressedSizeOfAGzipBomb() throws IOException {
    byte[] zeros = new byte[1 << 20];
    byte[] bomb = gzip(zeros, 64); // 64 MiB of zeros in about 64 KB
    assertThat(bomb.length).isLessThan(200_000);
    try (InputStream in = BoundedInput.wrap(new ByteArrayInputStream(bomb), 8 << 20)) {
      assertThatThrownBy(in::readAllBytes)
          .isInstanceOf(BoundedInput.TooLargeException.class)
          .hasMessageContaining(String.valueOf(8 << 20));
    }
  }

  @Test
  void inHeapReadsAreBoundedByAQuarterOfTheMaxHeapAndSaySo() throws IOException {
    long quarter = Runtime.getRuntime().maxMemory() / 4;
    assertThat(BoundedInput.inHeapLimit(Long.MAX_VALUE)).isEqualTo(quarter);
    assertThat(BoundedInput.inHeapLimit(1000)).isEqualTo(1000);
    // the heap is the tighter bound: the error says so, and how to raise it
    try (InputStream in = BoundedInput.wrapInHeap(new EndlessInput(), Long.MAX_VALUE, "ProGuard mapping")) {
      assertThatThrownBy(() -> in.transferTo(OutputStream.nullOutputStream()))
          .isInstanceOf(BoundedInput.TooLargeException.class)
          .hasMessageContaining("ProGuard mapping larger than " + quarter + " bytes")
          .hasMessageContaining("-Xmx");
    }
    // the configured cap is: the usual message
    try (InputStream in = BoundedInput.wrapInHeap(new EndlessInput(), 4096, "sourcemap")) {
      assertThatThrownBy(() -> in.transferTo(OutputStream.nullOutputStream()))
          .isInstanceOf(BoundedInput.TooLargeException.class)
          .hasMessage("input exceeds the configured limit of 4096 bytes (decompressed)");
    }
  }

  private static byte[] gzip(byte[] chunk, int times) throws IOException {
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(bos)) {
      for (int i = 0; i < times; i++) {
        gz.write(chunk);
      }
    }
    return bos.toByteArray();
  }
}
