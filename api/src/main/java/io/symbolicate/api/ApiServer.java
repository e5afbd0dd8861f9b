package io.symbolicate.api;

import io.symbolicate.api.server.Handler;
import io.symbolicate.api.server.JettyServer;
import io.symbolicate.api.server.ReadsWholeBody;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import io.symbolicate.api.server.RouteTable;
import io.symbolicate.api.server.ServerLimits;
import io.symbolicate.api.server.StreamsBody;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP API on Jetty ({@link JettyServer}): headers are parsed on its selectors and a
 * symbolication request's body is received before it takes a thread or an admission permit, so
 * slow clients hold connections, not the server. It serves a {@link RouteTable}; an unexpected failure is a
 * 500 with a JSON reason (running out of heap a 503) and the server goes on.
 */
public final class ApiServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ApiServer.class);

  private final JettyServer server;

  private ApiServer(JettyServer server) {
    this.server = server;
  }

  /** Serves {@code routes} on {@code settings}' host and port with the default {@link ServerLimits}. */
  public static ApiServer start(ApiSettings settings, RouteTable routes) throws IOException {
    return start(settings, routes, ServerLimits.defaults());
  }

  /** Serves {@code routes} on {@code settings}' host and port (0: any free port). */
  public static ApiServer start(ApiSettings settings, RouteTable routes, ServerLimits limits)
      throws IOException {
    RouteTable guarded =
        routes.map(
            (route, h) ->
                h instanceof ReadsWholeBody whole
                    ? new GuardedWhole(route.path(), h, whole)
                    : h instanceof StreamsBody streams
                        ? new GuardedStreams(route.path(), h, streams)
                        : new Guarded(route.path(), h));
    return new ApiServer(
        JettyServer.start("api", settings.host(), settings.port(), limits, guarded));
  }

  public int port() {
    return server.port();
  }

  /** The bound address (a wildcard when bound to every interface). */
  public InetSocketAddress address() {
    return server.address();
  }

  public URI uri() {
    return server.uri();
  }

  @Override
  public void close() {
    server.close();
  }

  /** JSON errors, and no failure escapes to kill the exchange silently. */
  private record Guarded(String path, Handler handler) implements Handler {
    @Override
    public void handle(Request request, Response response) {
      guard(path, handler, request, response);
    }
  }

  /** {@link Guarded} for a handler whose body the server receives first. */
  private record GuardedWhole(String path, Handler handler, ReadsWholeBody whole)
      implements Handler, ReadsWholeBody {
    @Override
    public void handle(Request request, Response response) {
      guard(path, handler, request, response);
    }

    @Override
    public long maxBodyBytes() {
      return whole.maxBodyBytes();
    }

    @Override
    public int retryAfterSeconds() {
      return whole.retryAfterSeconds();
    }

    @Override
    public ReceiveBudget receiveBudget() {
      return whole.receiveBudget();
    }
  }

  /** {@link Guarded} for a handler that refuses from the headers and streams its body. */
  private record GuardedStreams(String path, Handler handler, StreamsBody streams)
      implements Handler, StreamsBody {
    @Override
    public void handle(Request request, Response response) {
      guard(path, handler, request, response);
    }

    @Override
    public boolean refusedEarly(Request request, Response response) throws IOException {
      return streams.refusedEarly(request, response);
    }

    @Override
    public int receivedFirst() {
      return streams.receivedFirst();
    }

    @Override
    public ReadsWholeBody.ReceiveBudget receiveBudget() {
      return streams.receiveBudget();
    }
  }

  private static void guard(String path, Handler handler, Request request, Response response) {
    try {
      try {
        handler.handle(request, response);
      } catch (ApiException e) {
        Exchanges.error(response, e.status(), e.getMessage());
      } catch (RuntimeException e) {
        log.error("{} failed", path, e);
        Exchanges.error(response, 500, "internal error: " + e.getClass().getSimpleName());
      } catch (OutOfMemoryError e) {
        // what this request allocated is garbage once the error unwound it: answer, and go on
        // (the admission's heap budget keeps this rare; the client may retry)
        log.error(
            "{}: out of memory while answering (max heap {} MB)",
            path,
            Runtime.getRuntime().maxMemory() >> 20);
        Exchanges.error(response, 503, "out of memory while answering; retry later");
      }
    } catch (IOException e) {
      log.debug("{}: client went away: {}", path, e.toString());
    } catch (RuntimeException e) {
      log.warn("{}: could not answer: {}", path, e.toString());
    }
  }
}
