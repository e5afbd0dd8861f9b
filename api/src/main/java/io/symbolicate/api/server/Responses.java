package io.symbolicate.api.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** The server's own answers, in the API's shape: {@code {"error": reason}}. */
final class Responses {
  private Responses() {}

  /** Answers and completes the exchange; the connection closes after it (a body may be unread). */
  static void error(Response response, Callback callback, int status, String reason) {
    if (response.isCommitted()) {
      callback.failed(new IOException(reason));
      return;
    }
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
    byte[] body = ("{\"error\":\"" + escape(reason) + "\"}").getBytes(StandardCharsets.UTF_8);
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, ByteBuffer.wrap(body), callback);
  }

  /** JSON string content: quotes, backslashes and control characters escaped. */
  static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length() + 8);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }
}
