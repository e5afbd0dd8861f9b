package io.symbolicate.api.server;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** One route, as the JDK handler contract sees it: its path and handler (no filters). */
final class JettyContext extends HttpContext {
  private final String path;
  private HttpHandler handler;
  private final Map<String, Object> attributes = new HashMap<>();

  JettyContext(String path, HttpHandler handler) {
    this.path = path;
    this.handler = handler;
  }

  @Override
  public HttpHandler getHandler() {
    return handler;
  }

  @Override
  public void setHandler(HttpHandler h) {
    this.handler = h;
  }

  @Override
  public String getPath() {
    return path;
  }

  /** Not a JDK server: null. */
  @Override
  public HttpServer getServer() {
    return null;
  }

  @Override
  public Map<String, Object> getAttributes() {
    return attributes;
  }

  @Override
  public List<Filter> getFilters() {
    return List.of();
  }

  @Override
  public Authenticator setAuthenticator(Authenticator auth) {
    throw new UnsupportedOperationException(
        "authenticators are not supported; check in the handler");
  }

  @Override
  public Authenticator getAuthenticator() {
    return null;
  }
}
