package io.symbolicate.api;

import io.symbolicate.api.multipart.MultipartException;
import io.symbolicate.api.multipart.MultipartForm;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import java.io.IOException;

/**
 * A symbolication endpoint that takes a file: POST of a form its {@link FileShape} (which a
 * subclass implements) answers. This does the rest: the body received whole by the server (at
 * most the route's limit), admission as for the JSON endpoints (a share of the heap budget
 * proportional to the body), the form split, the scope header. Every refusal is {@code {"error":
 * reason}}. Browsers' cross-origin calls are not offered (no CORS headers): the callers of these
 * routes are servers and crash reporters.
 */
public abstract class FileHandler extends AdmittedHandler implements FileShape {
  /** Heap claimed per byte of body while answering: the file, its parse and the answer. */
  static final int HEAP_PER_BODY_BYTE = 8;

  protected FileHandler(Symbolication shared) {
    super(shared);
  }

  @Override
  public final void handle(Request request, Response response) throws IOException {
    if (!"POST".equals(request.method())) {
      response.header("Allow", "POST");
      Exchanges.error(response, 405, "use POST with a multipart/form-data body");
      return;
    }
    // who may read what, before any work (as the JSON endpoints)
    String scope = scope(request, response);
    byte[] body = Exchanges.body(request, maxBodyBytes());
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
      answer = Json.MAPPER.writeValueAsBytes(answer(form, scope, deadline, symbolicator, settings));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ApiException(503, "server is stopping");
    } finally {
      admission.release(claim);
    }
    Exchanges.send(response, 200, answer);
  }
}
