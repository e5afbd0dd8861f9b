package io.symbolicate.app.metrics;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** The little HTTP the two read-only endpoints need. */
final class HttpHandlers {
  private HttpHandlers() {}

  /** True for GET and HEAD on the handler's own path; anything else gets 404 or 405 with a reason. */
  static boolean allowGet(HttpExchange ex) throws IOException {
    if (!ex.getRequestURI().getPath().equals(ex.getHttpContext().getPath())) {
      send(
          ex,
          404,
          "application/json",
          "{\"error\": \"not found\"}".getBytes(StandardCharsets.UTF_8));
      return false;
    }
    String m = ex.getRequestMethod();
    if (m.equals("GET") || m.equals("HEAD")) {
      return true;
    }
    ex.getResponseHeaders().set("Allow", "GET, HEAD");
    send(
        ex,
        405,
        "application/json",
        ("{\"error\": \"method "
                + (m.matches("[A-Z]{1,16}") ? m : "?")
                + " not allowed, use GET\"}")
            .getBytes(StandardCharsets.UTF_8));
    return false;
  }

  static void send(HttpExchange ex, int status, String contentType, byte[] body)
      throws IOException {
    ex.getResponseHeaders().set("Content-Type", contentType);
    ex.getResponseHeaders().set("Cache-Control", "no-store");
    if (ex.getRequestMethod().equals("HEAD")) {
      ex.sendResponseHeaders(status, -1);
      return;
    }
    ex.sendResponseHeaders(status, body.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(body);
    }
  }
}
