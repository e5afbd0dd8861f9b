package io.symbolicate.api;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.symbolicate.api.multipart.MultipartException;
import io.symbolicate.api.multipart.MultipartForm;
import io.symbolicate.api.server.ReadsWholeBody;
import java.io.IOException;

/**
 * A POST endpoint for one {@link FileRoute}: the body received whole by the server (at most the
 * route's limit), admission as for the JSON endpoints (a share of the heap budget proportional to
 * the body), the form split, the scope header, the route's answer. Every refusal is
 * {@code {"error": reason}}. Browsers' cross-origin calls are not offered (no CORS headers): the
 * callers of these routes are servers and crash reporters.
 */
final class FileEndpoint implements HttpHandler, ReadsWholeBody {
  /** Heap claimed per byte of body while answering: the file, its parse and the answer. */
  static final int HEAP_PER_BODY_BYTE = 8;

  private final FileRoute route;
  private final ApiSymbolicator symbolicator;
  private final ApiSettings settings;
  private final Admission admission;
  private final java.util.function.Supplier<io.symbolicate.api.auth.ScopeAccess> access;

  FileEndpoint(FileRoute route, ApiSymbolicator symbolicator, ApiSettings settings, Admission admission,
      java.util.function.Supplier<io.symbolicate.api.auth.ScopeAccess> access) {
    this.access = access;
    this.route = route;
    this.symbolicator = symbolicator;
    this.settings = settings;
    this.admission = admission;
  }

  @Override
  public long maxBodyBytes() {
    return route.maxBodyBytes();
  }

  @Override
  public int retryAfterSeconds() {
    return settings.retryAfterSeconds();
  }

  @Override
  public ReceiveBudget receiveBudget() {
    return admission;
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    if (!"POST".equals(ex.getRequestMethod())) {
      ex.getResponseHeaders().set("Allow", "POST");
      Exchanges.error(ex, 405, "use POST with a multipart/form-data body");
      return;
    }
    byte[] body = Exchanges.body(ex, route.maxBodyBytes());
    long claim = Math.min(settings.inFlightBytesBudget(), Math.max(1024, (long) body.length) * HEAP_PER_BODY_BYTE);
    if (!admission.tryEnter(claim)) {
      ex.getResponseHeaders().set("Retry-After", String.valueOf(settings.retryAfterSeconds()));
      Exchanges.error(ex, 503, "too many requests in flight, or too much request data; retry later");
      return;
    }
    byte[] response;
    try {
      long deadline = System.currentTimeMillis() + settings.requestTimeout().toMillis();
      MultipartForm form;
      try {
        form = MultipartForm.parse(body, ex.getRequestHeaders().getFirst("Content-Type"));
      } catch (MultipartException e) {
        throw ApiException.badRequest(e.getMessage());
      }
      response = Json.MAPPER.writeValueAsBytes(route.answer(form, scope(ex), deadline, symbolicator, settings));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ApiException(503, "server is stopping");
    } finally {
      admission.release(claim);
    }
    Exchanges.send(ex, 200, response);
  }

  /** The scope this request reads, as for the JSON endpoints ({@link RequestScope}): keys and CORS alike. */
  private String scope(HttpExchange ex) {
    return RequestScope.of(ex, settings, access.get());
  }

}
