package io.symbolicate.api.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.io.Content;

/**
 * A Jetty request and response as our {@link Request} and {@link Response}: headers go straight
 * to Jetty's; {@link #start} sets the status and the length ({@code 0}: no body, the answer is
 * complete; {@code -1}: streamed), and the body is Jetty's blocking output stream.
 */
final class JettyExchange implements Request, Response {
  private final org.eclipse.jetty.server.Request request;
  private final org.eclipse.jetty.server.Response response;
  private final URI uri;
  private final InputStream body;

  /**
   * Bytes of an unread body that an error answer drops, so that the connection stays open for
   * the client's next request (a small upload or report, refused).
   */
  static final long DROP_ON_ERROR = 128 * 1024;

  /** How long an error answer waits for the rest of a small body (a refusal holds its thread). */
  static final Duration DROP_WAIT = Duration.ofSeconds(1);

  private OutputStream out;
  private int status = -1;
  private boolean closed;

  JettyExchange(
      org.eclipse.jetty.server.Request request,
      org.eclipse.jetty.server.Response response,
      URI uri,
      InputStream body) {
    this.request = request;
    this.response = response;
    this.uri = uri;
    this.body = body;
  }

  @Override
  public String method() {
    return request.getMethod();
  }

  @Override
  public String path() {
    return uri.getPath();
  }

  @Override
  public String rawPath() {
    return uri.getRawPath();
  }

  @Override
  public String rawQuery() {
    return uri.getRawQuery();
  }

  @Override
  public String header(String name) {
    return request.getHeaders().get(name);
  }

  @Override
  public boolean hasHeader(String name) {
    return request.getHeaders().contains(name);
  }

  @Override
  public InputStream body() {
    return body;
  }

  @Override
  public void holdBodyToRate(Duration grace) {
    if (body instanceof RateGuardedInput guarded) {
      guarded.restart(grace);
    } else if (body instanceof StartedBody started) {
      started.restart(grace);
    }
  }

  @Override
  public Response header(String name, String value) {
    if (status < 0) {
      response.getHeaders().put(name, value);
    }
    return this;
  }

  private OutputStream output() {
    if (out == null) {
      out = Content.Sink.asOutputStream(response);
    }
    return out;
  }

  @Override
  public OutputStream start(int code, long length) throws IOException {
    if (status >= 0) {
      throw new IOException("the answer has started already");
    }
    if (code < 100 || code > 999) {
      throw new IllegalArgumentException("bad status " + code);
    }
    status = code;
    if (code >= 400 && !bodyReceived()) {
      // Jetty closes a connection whose request body was not read to its end, but only after an
      // answer already committed without saying so, and at once: the rest of the body then
      // arriving makes the kernel reset the connection, and the client (the JDK's, still
      // writing) never reads the answer (its "header parser received no bytes")
      response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
    }
    response.setStatus(code);
    if (length >= 0) {
      response.getHeaders().put(HttpHeader.CONTENT_LENGTH, length);
    }
    if (length == 0) {
      output().close(); // no body: the answer is complete
    }
    return output();
  }

  /**
   * Whether the request's body has been received to its end, dropping the rest of it (an error
   * answer is given before or instead of reading it). A small announced body (at most {@link
   * #DROP_ON_ERROR}) is waited for up to {@link #DROP_WAIT}: its client is still writing it and
   * reads the answer only then, and the connection stays open for its next request. A body still
   * on its way after that, or larger, keeps the connection from being reused.
   */
  private boolean bodyReceived() {
    long length = request.getLength();
    Duration wait = length >= 0 && length <= DROP_ON_ERROR ? DROP_WAIT : Duration.ZERO;
    if (body instanceof RateGuardedInput guarded) {
      return guarded.dropRest(DROP_ON_ERROR, wait);
    }
    if (body instanceof StartedBody started) {
      return started.dropRest(DROP_ON_ERROR, wait);
    }
    return true; // received whole before the handler ran (ReadsWholeBody)
  }

  @Override
  public boolean started() {
    return status >= 0;
  }

  /** Ends the exchange: the answer's last bytes are sent; an unread body is left to the server. */
  void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      body.close();
    } catch (IOException e) {
      // nothing to do: the server consumes or discards what is left
    }
    if (status >= 0) {
      try {
        output().close();
      } catch (IOException e) {
        // the client went away; the dispatcher fails the exchange
      }
    }
  }
}
