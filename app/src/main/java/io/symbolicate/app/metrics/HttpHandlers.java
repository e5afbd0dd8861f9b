package io.symbolicate.app.metrics;

import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import io.symbolicate.api.server.Route;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** The little HTTP the two read-only endpoints need. */
final class HttpHandlers {
  private HttpHandlers() {}

  /**
   * True for GET and HEAD on the handler's own {@code route} (not with a trailing slash, which
   * the server would also route here); anything else gets 404 or 405 with a reason.
   */
  static boolean allowGet(Request request, Response response, Route route) throws IOException {
    if (!request.path().equals(route.path())) {
      send(
          request,
          response,
          404,
          "application/json",
          "{\"error\": \"not found\"}".getBytes(StandardCharsets.UTF_8));
      return false;
    }
    String m = request.method();
    if (m.equals("GET") || m.equals("HEAD")) {
      return true;
    }
    response.header("Allow", "GET, HEAD");
    send(
        request,
        response,
        405,
        "application/json",
        ("{\"error\": \"method "
                + (m.matches("[A-Z]{1,16}") ? m : "?")
                + " not allowed, use GET\"}")
            .getBytes(StandardCharsets.UTF_8));
    return false;
  }

  static void send(Request request, Response response, int status, String contentType, byte[] body)
      throws IOException {
    response.header("Content-Type", contentType).header("Cache-Control", "no-store");
    if (request.method().equals("HEAD")) {
      response.start(status, 0);
      return;
    }
    response.send(status, contentType, body);
  }
}
