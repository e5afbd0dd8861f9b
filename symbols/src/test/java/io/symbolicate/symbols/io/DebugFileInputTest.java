package io.symbolicate.symbols.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.symbols.testing.EndlessInput;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class DebugFileInputTest {

  @Test
  void passesPlainInputThrough() throws IOException {
    byte[] data = "MODULE Linux x86_64 ABC foo\n".getBytes(StandardCharsets.US_ASCII);
    try (InputStream in = DebugFileInput.wrap(new ByteArrayInputStream(data), 1000)) {
      assertThat(in.readAllBytes()).isEqualTo(data);
    }
  }

  @Test
  void gunzipsByMagicBytes() throws IOException {
    byte[] data = "MODULE Linux x86_64 ABC foo\n".getBytes(StandardCharsets.US_ASCII);
    try (InputStream in = DebugFileInput.wrap(new ByteArrayInputStream(gzip(data, 1)), 1000)) {
      assertThat(in.readAllBytes()).isEqualTo(data);
    }
  }

  /**
   * A truncated or corrupt gzip file is the file's fault (a loader caches it as malformed); the
   * source's own failure mid-stream stays what it was (transient), even an EOFException.
   */
  @Test
  void tellsACorruptGzipFileFromABrokenSource() throws IOException {
    byte[] data = new byte[200_000];
    new Random(7).nextBytes(data);
    byte[] gz = gzip(data, 1);
    byte[] truncated = Arrays.copyOf(gz, gz.length / 2);
    try (InputStream in = DebugFileInput.wrap(new ByteArrayInputStream(truncated), 1 << 20)) {
      assertThatThrownBy(in::readAllBytes)
          .isInstanceOf(DebugFileInput.CorruptInputException.class)
          .hasMessageContaining("truncated or corrupt");
    }
    byte[] corrupt = gz.clone();
    for (int i = 20; i < 60; i++) {
      corrupt[i] = (byte) 0xff;
    }
    try (InputStream in = DebugFileInput.wrap(new ByteArrayInputStream(corrupt), 1 << 20)) {
      assertThatThrownBy(in::readAllBytes).isInstanceOf(DebugFileInput.CorruptInputException.class);
    }
    // only a gzip header's first bytes
    assertThatThrownBy(
            () -> DebugFileInput.wrap(new ByteArrayInputStream(Arrays.copyOf(gz, 5)), 1 << 20))
        .isInstanceOf(DebugFileInput.CorruptInputException.class);
    InputStream breaking =
        new FilterInputStream(new ByteArrayInputStream(gz)) {
          private int read;

          @Override
          public int read(byte[] b, int off, int len) throws IOException {
            if (read > gz.length / 2) {
              throw new EOFException("connection closed early");
            }
            int n = super.read(b, off, Math.min(len, 4096));
            read += Math.max(0, n);
            return n;
          }
        };
    try (InputStream in = DebugFileInput.wrap(breaking, 1 << 20)) {
      assertThatThrownBy(in::readAllBytes)
          .isExactlyInstanceOf(EOFException.class)
          .hasMessage("connection closed early");
    }
    // plain input: an EOFException is never the decompressor's
    InputStream plainBreaking =
        new FilterInputStream(new ByteArrayInputStream(data)) {
          private boolean once;

          @Override
          public int read(byte[] b, int off, int len) throws IOException {
            if (once) {
              throw new EOFException("gone");
            }
            once = true;
            return super.read(b, off, Math.min(len, 100));
          }
        };
    try (InputStream in = DebugFileInput.wrap(plainBreaking, 1 << 20)) {
      assertThatThrownBy(in::readAllBytes).isExactlyInstanceOf(EOFException.class);
    }
  }

  @Test
  void capsDecompressedSizeOfAGzipBomb() throws IOException {
    byte[] zeros = new byte[1 << 20];
    byte[] bomb = gzip(zeros, 64); // 64 MiB of zeros in about 64 KB
    assertThat(bomb.length).isLessThan(200_000);
    try (InputStream in = DebugFileInput.wrap(new ByteArrayInputStream(bomb), 8 << 20)) {
      assertThatThrownBy(in::readAllBytes)
          .isInstanceOf(DebugFileInput.TooLargeException.class)
          .hasMessageContaining(String.valueOf(8 << 20));
    }
  }

  @Test
  void inHeapReadsAreBoundedByAQuarterOfTheMaxHeapAndSaySo() throws IOException {
    long quarter = Runtime.getRuntime().maxMemory() / 4;
    assertThat(DebugFileInput.inHeapLimit(Long.MAX_VALUE)).isEqualTo(quarter);
    assertThat(DebugFileInput.inHeapLimit(1000)).isEqualTo(1000);
    // the heap is the tighter bound: the error says so, and how to raise it
    try (InputStream in =
        DebugFileInput.wrapInHeap(new EndlessInput(), Long.MAX_VALUE, "ProGuard mapping")) {
      assertThatThrownBy(() -> in.transferTo(OutputStream.nullOutputStream()))
          .isInstanceOf(DebugFileInput.TooLargeException.class)
          .hasMessageContaining("ProGuard mapping larger than " + quarter + " bytes")
          .hasMessageContaining("-Xmx");
    }
    // the configured cap is: the usual message
    try (InputStream in = DebugFileInput.wrapInHeap(new EndlessInput(), 4096, "sourcemap")) {
      assertThatThrownBy(() -> in.transferTo(OutputStream.nullOutputStream()))
          .isInstanceOf(DebugFileInput.TooLargeException.class)
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
