package io.symbolicate.api.server;

import java.io.IOException;
import java.io.OutputStream;

/** The answer to a {@link Request}: headers, then a status and the body, once. */
public interface Response {
  /** Sets a header of the answer, replacing any of that name; no effect once the answer started. */
  Response header(String name, String value);

  /**
   * Starts the answer with its status and headers and a body of exactly {@code length} bytes
   * (0: no body, and the answer is complete; -1: a length not known, the body streamed), and
   * gives the stream to write the body to; closing it ends the answer.
   *
   * @throws IOException when the answer has started already, or the connection failed
   */
  OutputStream start(int status, long length) throws IOException;

  /** Whether {@link #start} was called. */
  boolean started();

  /** Answers {@code body} (with its Content-Type) and ends the answer. */
  default void send(int status, String contentType, byte[] body) throws IOException {
    header("Content-Type", contentType);
    try (OutputStream out = start(status, body.length)) {
      out.write(body);
    }
  }
}
