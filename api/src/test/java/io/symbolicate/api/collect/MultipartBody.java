package io.symbolicate.api.collect;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;

/** Builds multipart/form-data bodies as crash reporters send them, for tests. */
public final class MultipartBody {
  public static final String BOUNDARY = "------------------------50df17f3246aa40e";
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final String boundary;

  public MultipartBody() {
    this(BOUNDARY);
  }

  public MultipartBody(String boundary) {
    this.boundary = boundary;
  }

  public static String contentType() {
    return "multipart/form-data; boundary=" + BOUNDARY;
  }

  private void ascii(String s) {
    out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
  }

  public MultipartBody field(String name, String value) {
    ascii(
        "--"
            + boundary
            + "\r\nContent-Disposition: form-data; name=\""
            + name
            + "\"\r\n\r\n"
            + value
            + "\r\n");
    return this;
  }

  public MultipartBody json(String name, String json) {
    ascii(
        "--"
            + boundary
            + "\r\nContent-Disposition: form-data; name=\""
            + name
            + "\"\r\nContent-Type: application/json\r\n\r\n"
            + json
            + "\r\n");
    return this;
  }

  public MultipartBody file(String name, String filename, byte[] content) {
    ascii(
        "--"
            + boundary
            + "\r\nContent-Disposition: form-data; name=\""
            + name
            + "\"; filename=\""
            + filename
            + "\"\r\nContent-Type: application/octet-stream\r\n\r\n");
    out.writeBytes(content);
    ascii("\r\n");
    return this;
  }

  /** The body with its closing boundary. */
  public byte[] build() {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    all.writeBytes(out.toByteArray());
    all.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII));
    return all.toByteArray();
  }

  /** The body so far, without its closing boundary (a truncated upload). */
  public byte[] unterminated() {
    return out.toByteArray();
  }

  public static byte[] gzip(byte[] b) {
    ByteArrayOutputStream bo = new ByteArrayOutputStream();
    try (GZIPOutputStream g = new GZIPOutputStream(bo)) {
      g.write(b);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return bo.toByteArray();
  }
}
