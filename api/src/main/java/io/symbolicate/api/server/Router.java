package io.symbolicate.api.server;

import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link RouteTable}'s handlers on Jetty: exact paths (a trailing slash allowed), and
 * prefix routes, which take every longer path under their prefix; 404 for any other. A {@link
 * ReadsWholeBody} handler's POST body is received first, on no thread; a {@link StreamsBody}
 * handler runs once the start of its body arrived ({@link BodyStart}); every body a handler reads
 * is held to the minimum rate ({@link RateGuardedInput}).
 */
final class Router extends org.eclipse.jetty.server.Handler.Abstract {
  private static final Logger log = LoggerFactory.getLogger(Router.class);

  private final Map<String, Mounted> routes = new LinkedHashMap<>();
  private final Map<String, Mounted> prefixes = new LinkedHashMap<>();
  private final ServerLimits limits;

  /** A handler and the path it is mounted at (for the log). */
  private record Mounted(String path, Handler handler) {}

  Router(RouteTable table, ServerLimits limits) {
    table
        .handlers()
        .forEach(
            (route, h) -> {
              Mounted m = new Mounted(route.path(), h);
              if (route.isPrefix()) {
                prefixes.put(route.prefix(), m);
              } else {
                routes.put(route.path(), m);
              }
            });
    this.limits = limits;
  }

  private Mounted underPrefix(String path) {
    for (Map.Entry<String, Mounted> e : prefixes.entrySet()) {
      if (path.startsWith(e.getKey()) && path.length() > e.getKey().length()) {
        return e.getValue();
      }
    }
    return null;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    String path = request.getHttpURI().getPath();
    Mounted route = path == null ? null : routes.get(path);
    if (route == null && path != null && path.length() > 1 && path.endsWith("/")) {
      route = routes.get(path.substring(0, path.length() - 1));
    }
    if (route == null && path != null) {
      route = underPrefix(path);
    }
    if (route == null) {
      String p = path == null ? "" : path;
      Responses.error(
          response,
          callback,
          404,
          "no such endpoint: " + (p.length() > 100 ? p.substring(0, 100) + "..." : p));
      return true;
    }
    URI uri;
    try {
      uri = new URI(request.getHttpURI().getPathQuery());
    } catch (URISyntaxException e) {
      Responses.error(response, callback, 400, "invalid request target");
      return true;
    }
    Mounted context = route;
    long start = System.nanoTime();
    if (context.handler() instanceof ReadsWholeBody whole
        && "POST".equals(request.getMethod())
        && request.getLength() <= whole.maxBodyBytes()) {
      new BodyReceiver(
              request,
              response,
              callback,
              whole,
              limits,
              body -> run(context, request, response, callback, uri, body))
          .start();
      return true;
    }
    RateGuardedInput body = new RateGuardedInput(request, limits, start, 0);
    if (context.handler() instanceof StreamsBody streams && hasBody(request)) {
      JettyExchange early = new JettyExchange(request, response, uri, body);
      try {
        if (streams.refusedEarly(early, early)) {
          early.close();
          callback.succeeded();
          return true;
        }
      } catch (Exception e) {
        log.error("{} failed", context.path(), e);
        if (!early.started()) {
          Responses.error(
              response, callback, 500, "internal error: " + e.getClass().getSimpleName());
        } else {
          callback.failed(e);
        }
        return true;
      }
      new BodyStart(
              request,
              response,
              callback,
              limits,
              start,
              streams,
              started -> run(context, request, response, callback, uri, started))
          .start();
      return true;
    }
    run(context, request, response, callback, uri, body);
    return true;
  }

  /** A request that announces a body, or sends one in chunks (HTTP/1.1 without a length: none). */
  private static boolean hasBody(Request request) {
    String m = request.getMethod();
    return ("POST".equals(m) || "PUT".equals(m)) && request.getLength() != 0;
  }

  /** Runs the route's handler on this thread and completes the exchange. */
  private static void run(
      Mounted context,
      Request request,
      Response response,
      Callback callback,
      URI uri,
      InputStream body) {
    JettyExchange ex = new JettyExchange(request, response, uri, body);
    try {
      context.handler().handle(ex, ex);
    } catch (Exception | Error e) {
      if (!ex.started()) {
        log.error("{} failed", context.path(), e);
        ex.close();
        Responses.error(response, callback, 500, "internal error: " + e.getClass().getSimpleName());
        return;
      }
      log.debug("{}: answer cut short: {}", context.path(), e.toString());
      callback.failed(e);
      return;
    }
    if (!ex.started()) {
      ex.close();
      if (request.getAttribute(RateGuardedInput.TOO_SLOW) != null) {
        Responses.error(response, callback, 408, "request body arrived too slowly");
      } else {
        Responses.error(response, callback, 500, "internal error: no answer");
      }
      return;
    }
    ex.close();
    callback.succeeded();
  }
}
