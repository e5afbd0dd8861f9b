package io.symbolicate.api.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MultipartReaderTest {
  private static final String B = MultipartBody.BOUNDARY;

  record Read(MultipartReader.Part part, byte[] body) {}

  private static List<Read> readAll(InputStream in, String boundary) throws IOException {
    MultipartReader r = new MultipartReader(in, boundary);
    List<Read> out = new ArrayList<>();
    MultipartReader.Part p;
    while ((p = r.next()) != null) {
      out.add(new Read(p, r.body().readAllBytes()));
    }
    return out;
  }

  /** Hands out at most {@code n} bytes per read, so delimiters straddle every buffer refill. */
  private static InputStream trickle(byte[] b, int n) {
    return new FilterInputStream(new ByteArrayInputStream(b)) {
      @Override
      public int read(byte[] buf, int off, int len) throws IOException {
        return super.read(buf, off, Math.min(len, n));
      }
    };
  }

  private static void assertRefused(byte[] body, String boundary, String code) {
    assertThatThrownBy(() -> readAll(new ByteArrayInputStream(body), boundary))
        .isInstanceOfSatisfying(
            SubmitException.class,
            e -> {
              assertThat(e.code()).isEqualTo(code);
              assertThat(e.status()).isEqualTo(400);
              assertThat(e.getMessage()).isNotBlank();
            });
  }

  @Test
  void readsFieldsAndFilesWhateverTheReadSizes() throws IOException {
    byte[] dump = new byte[300_000];
    new Random(7).nextBytes(dump);
    // bytes that look like the start of a delimiter inside the file
    byte[] tricky = ("\r\n--" + B.substring(0, 20) + "\r\n-").getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(tricky, 0, dump, 1000, tricky.length);
    System.arraycopy(tricky, 0, dump, dump.length - tricky.length, tricky.length);
    byte[] body =
        new MultipartBody()
            .field("prod", "TestProd")
            .field("ver", "1.2.3")
            .file("upload_file_minidump", "a.dmp", dump)
            .field("empty", "")
            .build();
    for (int chunk : new int[] {1, 3, 73, 8192, 1 << 20}) {
      List<Read> parts = readAll(trickle(body, chunk), B);
      assertThat(parts)
          .extracting(p -> p.part().name())
          .containsExactly("prod", "ver", "upload_file_minidump", "empty");
      assertThat(new String(parts.get(0).body(), StandardCharsets.UTF_8)).isEqualTo("TestProd");
      assertThat(parts.get(2).body()).as("chunk " + chunk).isEqualTo(dump);
      assertThat(parts.get(2).part().isFile()).isTrue();
      assertThat(parts.get(2).part().filename()).isEqualTo("a.dmp");
      assertThat(parts.get(0).part().isFile()).isFalse();
      assertThat(parts.get(3).body()).isEmpty();
    }
  }

  @Test
  void skipsAPreambleAndUnreadPartsAndTakesTransportPadding() throws IOException {
    String body =
        "preamble text\r\n--"
            + B
            + "  \r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n"
            + "skipped\r\n--"
            + B
            + "\r\ncontent-disposition: form-data; name=b\r\n\r\nvalue\r\n--"
            + B
            + "--\r\nepilogue";
    MultipartReader r =
        new MultipartReader(new ByteArrayInputStream(body.getBytes(StandardCharsets.US_ASCII)), B);
    assertThat(r.next().name()).isEqualTo("a");
    MultipartReader.Part b = r.next(); // a's body never read
    assertThat(b.name()).isEqualTo("b");
    assertThat(new String(r.body().readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("value");
    assertThat(r.next()).isNull();
    assertThat(r.next()).isNull();
  }

  @Test
  void parsesContentDispositionParameters() {
    String v = "form-data; name=\"upload_file_minidump\"; filename=\"a \\\"b\\\".dmp\"";
    assertThat(MultipartReader.param(v, "name")).isEqualTo("upload_file_minidump");
    assertThat(MultipartReader.param(v, "filename")).isEqualTo("a \"b\".dmp");
    assertThat(MultipartReader.param("form-data; name=x; filename*=UTF-8''y", "filename")).isNull();
    assertThat(MultipartReader.param("form-data", "name")).isNull();
    assertThat(MultipartReader.boundaryOf("multipart/form-data; boundary=\"abc def\""))
        .isEqualTo("abc def");
    assertThat(MultipartReader.boundaryOf("multipart/form-data; charset=utf-8")).isNull();
  }

  @Test
  void aBodyWithoutItsBoundaryIsRefused() {
    byte[] body = new MultipartBody("other-boundary").field("a", "b").build();
    assertRefused(body, B, "malformed_multipart");
    byte[] big = new byte[200_000]; // a long body that never names the boundary
    assertRefused(big, B, "malformed_multipart");
  }

  @Test
  void aTruncatedBodyIsRefused() {
    byte[] dump = new byte[100_000];
    byte[] full =
        new MultipartBody()
            .field("a", "b")
            .file("upload_file_minidump", "x.dmp", dump)
            .unterminated();
    assertRefused(full, B, "truncated");
    assertRefused(Arrays.copyOf(full, full.length / 2), B, "truncated");
    // cut inside a part's headers
    String cut = "--" + B + "\r\nContent-Disposition: form-da";
    assertRefused(cut.getBytes(StandardCharsets.US_ASCII), B, "truncated");
    assertRefused(("--" + B).getBytes(StandardCharsets.US_ASCII), B, "truncated");
  }

  @Test
  void hostileHeadersAreRefused() {
    String noName = "--" + B + "\r\nContent-Type: text/plain\r\n\r\nx\r\n--" + B + "--\r\n";
    assertRefused(noName.getBytes(StandardCharsets.US_ASCII), B, "malformed_multipart");
    String longHeader =
        "--" + B + "\r\nX-Long: " + "a".repeat(40_000) + "\r\n\r\nx\r\n--" + B + "--\r\n";
    assertRefused(longHeader.getBytes(StandardCharsets.US_ASCII), B, "malformed_multipart");
    String manyHeaders =
        "--" + B + "\r\n" + "X-A: b\r\n".repeat(100) + "\r\nx\r\n--" + B + "--\r\n";
    assertRefused(manyHeaders.getBytes(StandardCharsets.US_ASCII), B, "malformed_multipart");
    String noColon = "--" + B + "\r\nnot a header\r\n\r\nx\r\n--" + B + "--\r\n";
    assertRefused(noColon.getBytes(StandardCharsets.US_ASCII), B, "malformed_multipart");
    String badLineEnd =
        "--" + B + "xx\r\nContent-Disposition: form-data; name=a\r\n\r\nx\r\n--" + B + "--\r\n";
    assertRefused(badLineEnd.getBytes(StandardCharsets.US_ASCII), B, "malformed_multipart");
  }

  @Test
  void badBoundariesAreRefused() {
    assertThatThrownBy(() -> new MultipartReader(InputStream.nullInputStream(), "x".repeat(71)))
        .isInstanceOfSatisfying(
            SubmitException.class, e -> assertThat(e.code()).isEqualTo("no_boundary"));
    assertThatThrownBy(() -> new MultipartReader(InputStream.nullInputStream(), ""))
        .isInstanceOfSatisfying(
            SubmitException.class, e -> assertThat(e.code()).isEqualTo("no_boundary"));
    assertThatThrownBy(() -> new MultipartReader(InputStream.nullInputStream(), "a\nb"))
        .isInstanceOfSatisfying(
            SubmitException.class, e -> assertThat(e.code()).isEqualTo("no_boundary"));
  }

  @Test
  void randomCutsAndFlipsNeverEscapeAsAnythingButARefusal() {
    byte[] body =
        new MultipartBody()
            .field("ProductName", "P")
            .file("upload_file_minidump", "a.dmp", new byte[5000])
            .build();
    Random rnd = new Random(42);
    for (int i = 0; i < 2000; i++) {
      byte[] b = Arrays.copyOf(body, rnd.nextInt(body.length + 1));
      for (int f = 0; f < 3 && b.length > 0; f++) {
        b[rnd.nextInt(b.length)] ^= (byte) (1 << rnd.nextInt(8));
      }
      try {
        readAll(new ByteArrayInputStream(b), B);
      } catch (SubmitException e) {
        assertThat(e.status()).isEqualTo(400);
      } catch (IOException e) {
        throw new AssertionError("only refusals may escape, got " + e, e);
      }
    }
  }
}
