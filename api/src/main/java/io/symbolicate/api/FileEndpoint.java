package io.symbolicate.api;

import com.sun.net.httpserver.HttpExchange;
import io.symbolicate.api.auth.ScopeAccess;
import io.symbolicate.api.multipart.MultipartException;
import io.symbolicate.api.multipart.MultipartForm;
import java.io.IOException;
import java.util.function.Supplier;

/**
 * A POST endpoint for one {@link FileRoute}: the body received whole by the server (at most the
 * route's limit), admission as for the JSON endpoints (a share of the heap budget proportional to
 * the body), the form split, the scope header, the route's answer. Every refusal is
 * {@code {"error": reason}}. Browsers' cross-origin calls are not offered (no CORS headers): the
 * callers of these routes are servers and crash reporters.
 */
final class FileEndpoint extends AdmittedEndpoint {
  /** Heap claimed per byte of body while answering: the file, its parse and the answer. */
  static final int HEAP_PER_BODY_BYTE = 8;

  private final FileRoute route;

  FileEndpoint(
      FileRoute route,
      ApiSymbolicator symbolicator,
      ApiSettings settings,
      Admission admission,
      Supplier<ScopeAccess> access) {
    super(symbolicator, settings, admission, access);
    this.route = route;
  }

  @Override
  public long maxBodyBytes() {
    return route.maxBodyBytes();
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    if (!"POST".equals(ex.getRequestMethod())) {
      ex.getResponseHeaders().set("Allow", "POST");
      Exchanges.error(ex, 405, "use POST with a multipart/form-data body");
      return;
    }
    // who may read what, before any work (as the JSON endpoints)
    String scope = scope(ex);
    byte[] body = Exchanges.body(ex, route.maxBodyBytes());
    long claim = bodyClaim(body.length, HEAP_PER_BODY_BYTE);
    if (!admit(ex, claim)) {
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
      response =
          Json.MAPPER.writeValueAsBytes(
              route.answer(form, scope, deadline, symbolicator, settings));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ApiException(503, "server is stopping");
    } finally {
      admission.release(claim);
    }
    Exchanges.send(ex, 200, response);
  }
}
