package io.symbolicate.api.status;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import io.symbolicate.api.ApiException;
import java.io.IOException;
import java.io.OutputStream;

/** The answers of the status routes: GET or HEAD only, never cached, under a strict policy. */
final class StatusResponses {
  /**
   * Only our own script, style and JSON; no inline script or style, no frames, no forms. Inline
   * SVG is markup, not an image, so it needs nothing; {@code data:} is the empty favicon.
   */
  static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; "
          + "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

  private StatusResponses() {}

  /** Refuses anything but GET and HEAD with 405. */
  static void requireGet(HttpExchange ex) {
    String m = ex.getRequestMethod();
    if (!m.equals("GET") && !m.equals("HEAD")) {
      ex.getResponseHeaders().set("Allow", "GET, HEAD");
      throw new ApiException(405, "method not allowed, use GET");
    }
  }

  static void send(HttpExchange ex, String contentType, byte[] body) throws IOException {
    Headers h = ex.getResponseHeaders();
    h.set("Content-Type", contentType);
    h.set("Cache-Control", "no-store");
    h.set("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    h.set("X-Content-Type-Options", "nosniff");
    h.set("Referrer-Policy", "no-referrer");
    h.set("X-Frame-Options", "DENY");
    if (ex.getRequestMethod().equals("HEAD")) {
      ex.sendResponseHeaders(200, -1);
      return;
    }
    ex.sendResponseHeaders(200, body.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(body);
    }
  }
}
