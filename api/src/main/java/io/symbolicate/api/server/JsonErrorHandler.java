package io.symbolicate.api.server;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's own refusals (a request target it cannot decode, a header too large, ...) in the API's
 * shape, {@code {"error": reason}}, instead of its HTML error page: clients parse every answer
 * of this server as JSON.
 */
final class JsonErrorHandler extends ErrorHandler {
  @Override
  protected void generateResponse(
      Request request,
      Response response,
      int code,
      String message,
      Throwable cause,
      Callback callback) {
    String reason =
        message != null && !message.isBlank()
            ? message
            : cause != null ? cause.getClass().getSimpleName() : "HTTP " + code;
    Responses.error(response, callback, code, reason);
  }
}
