package io.symbolicate.api;

import io.symbolicate.api.auth.ScopeAccess;
import io.symbolicate.api.multipart.MultipartException;
import io.symbolicate.api.multipart.MultipartForm;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
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
  public void handle(Request request, Response response) throws IOException {
    if (!"POST".equals(request.method())) {
      response.header("Allow", "POST");
      Exchanges.error(response, 405, "use POST with a multipart/form-data body");
      return;
    }
    // who may read what, before any work (as the JSON endpoints)
    String scope = scope(request, response);
    byte[] body = Exchanges.body(request, route.maxBodyBytes());
    long claim = bodyClaim(body.length, HEAP_PER_BODY_BYTE);
    if (!admit(response, claim)) {
      return;
    }
    byte[] answer;
    try {
      long deadline = System.currentTimeMillis() + settings.requestTimeout().toMillis();
      MultipartForm form;
      try {
        form = MultipartForm.parse(body, request.header("Content-Type"));
      } catch (MultipartException e) {
        throw ApiException.badRequest(e.getMessage());
      }
      answer =
          Json.MAPPER.writeValueAsBytes(
              route.answer(form, scope, deadline, symbolicator, settings));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ApiException(503, "server is stopping");
    } finally {
      admission.release(claim);
    }
    Exchanges.send(response, 200, answer);
  }
}
