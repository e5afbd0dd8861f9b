package io.symbolicate.api.status;

import io.symbolicate.api.ApiException;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import java.io.IOException;

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
  static void requireGet(Request request, Response response) {
    String m = request.method();
    if (!m.equals("GET") && !m.equals("HEAD")) {
      response.header("Allow", "GET, HEAD");
      throw new ApiException(405, "method not allowed, use GET");
    }
  }

  static void send(Request request, Response response, String contentType, byte[] body)
      throws IOException {
    response
        .header("Content-Type", contentType)
        .header("Cache-Control", "no-store")
        .header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        .header("X-Content-Type-Options", "nosniff")
        .header("Referrer-Policy", "no-referrer")
        .header("X-Frame-Options", "DENY");
    if (request.method().equals("HEAD")) {
      response.start(200, 0);
      return;
    }
    response.send(200, contentType, body);
  }
}
