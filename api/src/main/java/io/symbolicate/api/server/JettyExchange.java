package io.symbolicate.api.server;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;

/**
 * A Jetty request and response seen through the JDK's {@link HttpExchange}, so the handlers
 * written for the JDK server run unchanged: the same header, status and length rules
 * ({@code sendResponseHeaders(code, -1)}: no body; 0: chunked; n: exactly n bytes).
 */
final class JettyExchange extends HttpExchange {
  private final Request request;
  private final Response response;
  private final HttpContext context;
  private final URI uri;
  private final Headers requestHeaders = new Headers();
  private final Headers responseHeaders = new Headers();
  private final Map<String, Object> attributes = new HashMap<>();
  private InputStream body;
  private OutputStream out;
  private int status = -1;
  private boolean closed;

  JettyExchange(
      Request request, Response response, HttpContext context, URI uri, InputStream body) {
    this.request = request;
    this.response = response;
    this.context = context;
    this.uri = uri;
    this.body = body;
    for (HttpField f : request.getHeaders()) {
      requestHeaders.add(f.getName(), f.getValue());
    }
  }

  boolean responseStarted() {
    return status >= 0;
  }

  @Override
  public Headers getRequestHeaders() {
    return requestHeaders;
  }

  @Override
  public Headers getResponseHeaders() {
    return responseHeaders;
  }

  @Override
  public URI getRequestURI() {
    return uri;
  }

  @Override
  public String getRequestMethod() {
    return request.getMethod();
  }

  @Override
  public HttpContext getHttpContext() {
    return context;
  }

  @Override
  public InputStream getRequestBody() {
    return body;
  }

  @Override
  public OutputStream getResponseBody() {
    if (out == null) {
      out = Content.Sink.asOutputStream(response);
    }
    return out;
  }

  @Override
  public void sendResponseHeaders(int code, long length) throws IOException {
    if (status >= 0) {
      throw new IOException("headers already sent");
    }
    if (code < 100 || code > 999) {
      throw new IllegalArgumentException("bad status " + code);
    }
    status = code;
    response.setStatus(code);
    HttpFields.Mutable h = response.getHeaders();
    for (Map.Entry<String, List<String>> e : responseHeaders.entrySet()) {
      h.remove(e.getKey());
      for (String v : e.getValue()) {
        h.add(e.getKey(), v);
      }
    }
    if (length > 0) {
      h.put(HttpHeader.CONTENT_LENGTH, length);
    } else if (length < 0) {
      h.put(HttpHeader.CONTENT_LENGTH, 0L);
      getResponseBody().close(); // no body: the answer is complete
    }
  }

  @Override
  public int getResponseCode() {
    return status;
  }

  /** Ends the exchange: the answer's last bytes are sent; an unread body is left to the server. */
  @Override
  public void close() {
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
        getResponseBody().close();
      } catch (IOException e) {
        // the client went away; the dispatcher fails the exchange
      }
    }
  }

  boolean isClosed() {
    return closed;
  }

  @Override
  public InetSocketAddress getRemoteAddress() {
    return inet(request.getConnectionMetaData().getRemoteSocketAddress());
  }

  @Override
  public InetSocketAddress getLocalAddress() {
    return inet(request.getConnectionMetaData().getLocalSocketAddress());
  }

  private static InetSocketAddress inet(SocketAddress a) {
    return a instanceof InetSocketAddress i ? i : null;
  }

  @Override
  public String getProtocol() {
    return request.getConnectionMetaData().getProtocol();
  }

  @Override
  public Object getAttribute(String name) {
    return attributes.get(name);
  }

  @Override
  public void setAttribute(String name, Object value) {
    attributes.put(name, value);
  }

  @Override
  public void setStreams(InputStream i, OutputStream o) {
    if (i != null) {
      body = i;
    }
    if (o != null) {
      out = o;
    }
  }

  @Override
  public HttpPrincipal getPrincipal() {
    return null;
  }
}
