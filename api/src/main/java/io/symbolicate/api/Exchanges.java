package io.symbolicate.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Reading bounded request bodies and writing JSON answers. */
final class Exchanges {
  private Exchanges() {}

  /**
   * Oversized bodies up to this size are read and discarded before the 413 is sent: closing a
   * connection with unread data resets it, and the client would never see the reason.
   */
  static final long DRAIN_CAP = 256L << 20;

  /** ... and for at most this long: a handler thread is not held for a slow client's megabytes. */
  static final long DRAIN_MILLIS = 5_000;

  /** The request's Content-Length, or -1 without one; 400 when it is not a number. */
  static long declaredLength(Request request) {
    String len = request.header("Content-Length");
    if (len == null) {
      return -1;
    }
    try {
      return Long.parseLong(len.trim());
    } catch (NumberFormatException e) {
      throw ApiException.badRequest("invalid Content-Length");
    }
  }

  /** The body, at most {@code max} bytes; 413 (decided from Content-Length when present) beyond. */
  static byte[] body(Request request, long max) throws IOException {
    long declared = declaredLength(request);
    if (declared > max) {
      if (declared <= DRAIN_CAP) {
        drain(request.body(), DRAIN_CAP);
      }
      throw new ApiException(
          413, "request body of " + declared + " bytes exceeds the limit of " + max + " bytes");
    }
    ByteArrayOutputStream out =
        new ByteArrayOutputStream(declared < 0 ? 8192 : (int) Math.min(max, declared));
    byte[] buf = new byte[16384];
    long total = 0;
    try (InputStream in = request.body()) {
      int n;
      while ((n = in.read(buf)) > 0) {
        total += n;
        if (total > max) {
          drain(in, DRAIN_CAP - total);
          throw new ApiException(413, "request body exceeds the limit of " + max + " bytes");
        }
        out.write(buf, 0, n);
      }
    }
    return out.toByteArray();
  }

  private static void drain(InputStream in, long cap) throws IOException {
    byte[] buf = new byte[65536];
    long left = cap;
    long until = System.nanoTime() + DRAIN_MILLIS * 1_000_000;
    int n;
    while (left > 0
        && System.nanoTime() < until
        && (n = in.read(buf, 0, (int) Math.min(buf.length, left))) > 0) {
      left -= n;
    }
  }

  static void json(Response response, int status, JsonNode body) throws IOException {
    send(response, status, Json.MAPPER.writeValueAsBytes(body));
  }

  static void error(Response response, int status, String reason) throws IOException {
    send(
        response,
        status,
        Json.MAPPER.writeValueAsBytes(Json.MAPPER.createObjectNode().put("error", reason)));
  }

  /**
   * Sends {@code bytes}, running {@code beforeLastByte} once all but the last byte have been
   * handed to the connection (not run if sending fails before that).
   */
  static void send(Response response, int status, byte[] bytes, Runnable beforeLastByte)
      throws IOException {
    response.header("Content-Type", "application/json");
    try (OutputStream os = response.start(status, bytes.length)) {
      if (bytes.length > 1) {
        os.write(bytes, 0, bytes.length - 1);
        os.flush();
      }
      beforeLastByte.run();
      if (bytes.length > 0) {
        os.write(bytes, bytes.length - 1, 1);
      }
    }
  }

  static void send(Response response, int status, byte[] bytes) throws IOException {
    send(response, status, bytes, () -> {});
  }

  static String utf8(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }
}
