package io.symbolicate.api.multipart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Form bodies as HTTP clients write them, and bodies no client should send. */
class MultipartFormTest {
  static final String CT = "multipart/form-data; boundary=------------------------d74496d66958873e";

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  /** What curl -F 'upload_file_minidump=@x.dmp' -F 'sources=[]' sends. */
  static final String CURL =
      "--------------------------d74496d66958873e\r\n"
          + "Content-Disposition: form-data; name=\"upload_file_minidump\"; filename=\"x.dmp\"\r\n"
          + "Content-Type: application/octet-stream\r\n\r\n"
          + "MDMP\r\n--not-a-boundary\r\n\u00ff\r\n"
          + "--------------------------d74496d66958873e\r\n"
          + "Content-Disposition: form-data; name=\"sources\"\r\n\r\n"
          + "[]\r\n"
          + "--------------------------d74496d66958873e--\r\n";

  @Test
  void readsTheParts() throws Exception {
    MultipartForm f = MultipartForm.parse(b(CURL), CT);
    assertThat(f.parts()).hasSize(2);
    MultipartForm.Part dump = f.part("upload_file_minidump");
    assertThat(dump.filename()).isEqualTo("x.dmp");
    assertThat(dump.contentType()).isEqualTo("application/octet-stream");
    assertThat(dump.bytes()).isEqualTo(b("MDMP\r\n--not-a-boundary\r\n\u00ff"));
    assertThat(f.part("sources").text()).isEqualTo("[]");
    assertThat(f.part("sources").filename()).isNull();
    assertThat(f.part("nope")).isNull();
  }

  @Test
  void preambleEpilogueQuotedBoundaryAndPadding() throws Exception {
    String body =
        "preamble\r\n--b\t \r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--b\r\n\r\nx\r\n--b--epilogue";
    assertThatThrownBy(() -> MultipartForm.parse(b(body), "multipart/form-data; boundary=\"b\""))
        .isInstanceOf(MultipartException.class)
        .hasMessageContaining("part 1 has no Content-Disposition name");
    String ok =
        "preamble\r\n--b\t \r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--b--epilogue";
    MultipartForm f =
        MultipartForm.parse(b(ok), "Multipart/Form-Data; charset=utf-8; boundary=\"b\"");
    assertThat(f.part("a").text()).isEqualTo("1");
    assertThat(MultipartForm.parse(b("--b--"), "multipart/form-data; boundary=b").parts())
        .isEmpty();
  }

  @Test
  void refusesWhatIsNotAForm() {
    assertThatThrownBy(() -> MultipartForm.parse(b(CURL), null))
        .hasMessageContaining("none was given");
    assertThatThrownBy(() -> MultipartForm.parse(b(CURL), "application/json"))
        .hasMessageContaining("got 'application/json'");
    assertThatThrownBy(() -> MultipartForm.parse(b(CURL), "multipart/form-data"))
        .hasMessageContaining("no boundary");
    assertThatThrownBy(
            () -> MultipartForm.parse(b(CURL), "multipart/form-data; boundary=" + "x".repeat(71)))
        .hasMessageContaining("1 to 70");
    assertThatThrownBy(() -> MultipartForm.parse(b("hello"), "multipart/form-data; boundary=b"))
        .hasMessageContaining("no multipart boundary");
    assertThatThrownBy(() -> MultipartForm.parse(b(CURL.substring(0, CURL.length() - 20)), CT))
        .hasMessageContaining("not closed by a boundary");
    assertThatThrownBy(() -> MultipartForm.parse(b("--bxx"), "multipart/form-data; boundary=b"))
        .hasMessageContaining("not followed by CRLF");
    assertThatThrownBy(
            () ->
                MultipartForm.parse(
                    b("--b\r\nContent-Disposition: attachment; name=a\r\n\r\n1\r\n--b--"),
                    "multipart/form-data; boundary=b"))
        .hasMessageContaining("must be form-data");
    assertThatThrownBy(
            () ->
                MultipartForm.parse(
                    b(
                        "--b\r\nContent-Disposition: form-data; name=a\r\n"
                            + "Content-Transfer-Encoding: base64\r\n\r\nMQ==\r\n--b--"),
                    "multipart/form-data; boundary=b"))
        .hasMessageContaining("'base64' is not supported");
    assertThatThrownBy(
            () ->
                MultipartForm.parse(
                    b("--b\r\nno colon here\r\n\r\n1\r\n--b--"), "multipart/form-data; boundary=b"))
        .hasMessageContaining("malformed header line");
  }

  @Test
  void boundsPartsAndHeaders() {
    StringBuilder many = new StringBuilder();
    for (int i = 0; i <= MultipartForm.MAX_PARTS; i++) {
      many.append("--b\r\nContent-Disposition: form-data; name=p")
          .append(i)
          .append("\r\n\r\nv\r\n");
    }
    many.append("--b--");
    assertThatThrownBy(
            () -> MultipartForm.parse(b(many.toString()), "multipart/form-data; boundary=b"))
        .isInstanceOf(MultipartException.class)
        .hasMessageContaining("more than " + MultipartForm.MAX_PARTS + " parts");
    String longHeader =
        "--b\r\nContent-Disposition: form-data; name=a\r\nX-Pad: "
            + "p".repeat(MultipartForm.MAX_HEADER_BYTES)
            + "\r\n\r\n1\r\n--b--";
    assertThatThrownBy(() -> MultipartForm.parse(b(longHeader), "multipart/form-data; boundary=b"))
        .hasMessageContaining("longer than " + MultipartForm.MAX_HEADER_BYTES);
  }

  @Test
  void randomBytesAreRefusedWithAReasonOrRead() {
    Random r = new Random(33);
    byte[] good = b(CURL);
    for (int i = 0; i < 5000; i++) {
      byte[] m = good.clone();
      int edits = 1 + r.nextInt(8);
      for (int k = 0; k < edits; k++) {
        m[r.nextInt(m.length)] = (byte) r.nextInt(256);
      }
      if (r.nextBoolean()) {
        m = Arrays.copyOf(m, r.nextInt(m.length + 1));
      }
      try {
        MultipartForm f = MultipartForm.parse(m, CT);
        assertThat(f.parts().size()).isLessThanOrEqualTo(MultipartForm.MAX_PARTS);
      } catch (MultipartException expected) {
        assertThat(expected.getMessage()).isNotBlank();
      }
    }
  }
}
