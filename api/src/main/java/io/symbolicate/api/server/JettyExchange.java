package io.symbolicate.api.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import org.eclipse.jetty.http.HttpHeader;
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
    response.setStatus(code);
    if (length >= 0) {
      response.getHeaders().put(HttpHeader.CONTENT_LENGTH, length);
    }
    if (length == 0) {
      output().close(); // no body: the answer is complete
    }
    return output();
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
