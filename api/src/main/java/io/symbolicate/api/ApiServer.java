package io.symbolicate.api;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP API on the JDK's own server. Handlers run on a pool a few threads larger than the
 * admission limit, so a refusal (503) is answered at once even when every permit is taken.
 * Paths match exactly; an unexpected failure is a 500 with a JSON reason (running out of heap a
 * 503) and the server goes on.
 */
public final class ApiServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ApiServer.class);

  static {
    JdkServerDefaults.ensure(); // no Nagle delay; time limits for slow clients
  }

  private final HttpServer server;
  private final ExecutorService executor;

  private ApiServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  public static ApiServer start(ApiRoutes routes) throws IOException {
    ApiSettings s = routes.settings();
    HttpServer server = HttpServer.create(new InetSocketAddress(s.host(), s.port()), 128);
    for (Map.Entry<String, HttpHandler> r : routes.routes().entrySet()) {
      server.createContext(r.getKey(), new Guarded(r.getKey(), r.getValue(), false));
    }
    for (Map.Entry<String, HttpHandler> r : routes.prefixRoutes().entrySet()) {
      server.createContext(r.getKey(), new Guarded(r.getKey(), r.getValue(), true));
    }
    AtomicInteger n = new AtomicInteger();
    int threads = s.maxInFlight() + 4;
    ThreadPoolExecutor executor = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), r -> {
          Thread t = new Thread(r, "api-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    server.setExecutor(executor);
    server.start();
    return new ApiServer(server, executor);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** The bound address (a wildcard when bound to every interface). */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  public URI uri() {
    return URI.create("http://" + server.getAddress().getHostString() + ":" + port());
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  /**
   * Exact path match (or, for a prefix route, a path under it), JSON errors, and no failure
   * escapes to kill the exchange silently.
   */
  private record Guarded(String path, HttpHandler handler, boolean prefix) implements HttpHandler {
    @Override
    public void handle(HttpExchange ex) {
      try (ex) {
        String p = ex.getRequestURI().getPath();
        boolean matches = prefix ? p.startsWith(path) && p.length() > path.length()
            : p.equals(path) || p.endsWith("/") && p.length() > 1 && p.substring(0, p.length() - 1).equals(path);
        if (!matches) {
          Exchanges.error(ex, 404, "no such endpoint: " + (p.length() > 100 ? p.substring(0, 100) + "..." : p));
          return;
        }
        try {
          handler.handle(ex);
        } catch (ApiException e) {
          Exchanges.error(ex, e.status(), e.getMessage());
        } catch (RuntimeException e) {
          log.error("{} failed", path, e);
          Exchanges.error(ex, 500, "internal error: " + e.getClass().getSimpleName());
        } catch (OutOfMemoryError e) {
          // what this request allocated is garbage once the error unwound it: answer, and go on
          // (the admission's heap budget keeps this rare; the client may retry)
          log.error("{}: out of memory while answering (max heap {} MB)", path,
              Runtime.getRuntime().maxMemory() >> 20);
          Exchanges.error(ex, 503, "out of memory while answering; retry later");
        }
      } catch (IOException e) {
        log.debug("{}: client went away: {}", path, e.toString());
      } catch (RuntimeException e) {
        log.warn("{}: could not answer: {}", path, e.toString());
      }
    }
  }
}
