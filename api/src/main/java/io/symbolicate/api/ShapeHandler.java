package io.symbolicate.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.server.ReadsWholeBody;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import io.symbolicate.schema.CrashEvent;
import java.io.CharConversionException;
import java.io.IOException;
import java.util.List;

/**
 * A JSON symbolication endpoint: POST of its {@link ApiShape}, which a subclass implements (the
 * request's JSON to crash events, symbolicated events to the answer's JSON). This does the rest:
 * CORS, bounded body, admission, JSON, the shape's request, the shared symbolication flow, the
 * shape's response. Every refusal is {@code {"error": reason}}.
 *
 * <p>The server receives the body before this runs ({@link ReadsWholeBody}), claiming its bytes
 * as they arrive; the work permit and the heap claim are taken only once it is whole, so a
 * client sending slowly holds neither.
 */
public abstract class ShapeHandler<R> extends AdmittedHandler implements ApiShape<R> {
  /** Header naming the tenant whose private symbols may be used (then the global scope). */
  static final String SCOPE_HEADER = "X-Symbolicator-Scope";

  protected ShapeHandler(Symbolication shared) {
    super(shared);
  }

  @Override
  public long maxBodyBytes() {
    return settings.maxBodyBytes();
  }

  @Override
  public final void handle(Request request, Response response) throws IOException {
    // CORS: browser tools (e.g. the Firefox Profiler) post JSON from another origin
    String origin = request.header("Origin");
    CorsPolicy cors = settings.cors();
    String allowed = cors.allowOrigin(origin);
    if (allowed != null) {
      response.header("Access-Control-Allow-Origin", allowed);
    }
    if (cors.variesByOrigin()) {
      response.header("Vary", "Origin");
    }
    if ("OPTIONS".equals(request.method())) {
      if (allowed != null) {
        response.header("Access-Control-Allow-Methods", "POST, OPTIONS");
        // a scope (private symbols) only for origins listed by name
        response.header(
            "Access-Control-Allow-Headers",
            cors.allowsScope(origin)
                ? "Content-Type, Authorization, " + SCOPE_HEADER
                : "Content-Type");
        response.header("Access-Control-Max-Age", "86400");
      }
      response.start(204, 0);
      return;
    }
    if (!"POST".equals(request.method())) {
      response.header("Allow", "POST");
      Exchanges.error(response, 405, "use POST with a JSON body");
      return;
    }
    // who may read what, before any work: the body has arrived already, but is not parsed
    String scope = scope(request, response);
    // the body first: it has arrived already (or the server hands over a stream to refuse)
    byte[] body = Exchanges.body(request, settings.maxBodyBytes());
    long[] claim = {bodyClaim(body.length, ApiSettings.HEAP_PER_BODY_BYTE)};
    if (!admit(response, claim[0])) {
      return;
    }
    byte[] answer;
    try {
      answer = Json.MAPPER.writeValueAsBytes(answer(request, response, body, claim, scope));
    } catch (InterruptedException e) {
      admission.release(claim[0]);
      Thread.currentThread().interrupt();
      throw new ApiException(503, "server is stopping");
    } catch (IOException | RuntimeException | Error e) {
      admission.release(claim[0]);
      throw e;
    }
    // the permit and the answer's share of the claim are held while a slow client reads, and
    // given back just before the last byte: a client that sends its next request as soon as it
    // has read this answer finds them free
    long held = admission.answering(claim[0], answer.length);
    boolean[] released = {false};
    try {
      Exchanges.send(
          response,
          200,
          answer,
          () -> {
            released[0] = true;
            admission.answered(held, answer.length);
          });
    } finally {
      if (!released[0]) {
        admission.answered(held, answer.length);
      }
    }
  }

  /**
   * The answer; {@code claim[0]} grows by the share of the heap of its frames, stacks and modules
   * once they are counted.
   */
  private JsonNode answer(Request http, Response response, byte[] body, long[] claim, String scope)
      throws IOException, InterruptedException {
    long deadline = System.currentTimeMillis() + settings.requestTimeout().toMillis();
    R request = parse(readJson(body), http::header);
    List<CrashEvent> events = events(request, scope);
    ApiFrames.Size size = ApiFrames.Size.ZERO;
    for (CrashEvent e : events) {
      size = size.plus(ApiFrames.size(e));
    }
    // empty stacks and unused modules count too: a body of nothing but "[]" is ~1.7M stacks
    if (size.exceeds(settings.maxFrames())) {
      throw ApiException.tooManyItems(
          size.frames(), size.stacks(), size.modules(), settings.maxFrames());
    }
    // a small body may hold many frames, stacks and modules, and each costs its answer's objects
    long more = size.total() * ApiSettings.HEAP_PER_ITEM;
    if (!admission.tryClaimMore(claim[0], more)) {
      response.header("Retry-After", String.valueOf(settings.retryAfterSeconds()));
      throw new ApiException(
          503,
          "too much request data in flight (this request has "
              + size.frames()
              + " frames, "
              + size.stacks()
              + " stacks and "
              + size.modules()
              + " modules); retry later");
    }
    claim[0] += more;
    ApiSymbolicator.Result r =
        symbolicator.symbolicate(
            events,
            ownModules(request, scope),
            deadline,
            settings.maxModules(),
            (ready, lookup) -> whenReady(request, ready, lookup));
    return render(request, r.events(), r.stats(), r.lookup());
  }

  /** The body as JSON, or a 400 with Jackson's reason (also the fuzz target's entry: ApiRequestFuzzTests). */
  static JsonNode readJson(byte[] body) throws IOException {
    JsonNode json;
    try {
      json = Json.MAPPER.readTree(body);
    } catch (JsonProcessingException e) {
      throw ApiException.badRequest("payload is not valid JSON: " + shortMessage(e));
    } catch (CharConversionException e) {
      // Jackson detects UTF-16/32 from the first bytes and reports broken ones this way, an
      // IOException that is not a JsonProcessingException (a fuzz finding: it was a 500)
      String m = String.valueOf(e.getMessage()).replaceAll("[\\r\\n]+", " ");
      throw ApiException.badRequest(
          "payload is not valid JSON: invalid text encoding: "
              + (m.length() > 200 ? m.substring(0, 200) + "..." : m));
    } catch (NumberFormatException e) {
      // decimals are read exactly (Json.MAPPER); one no BigDecimal holds, as
      // 1E-77777777777777777777,
      // fails this way, unchecked (a fuzz finding: it was a 500)
      throw ApiException.badRequest("payload is not valid JSON: a number out of range");
    }
    if (json == null || json.isMissingNode()) {
      throw ApiException.badRequest("payload is not valid JSON: empty body");
    }
    return json;
  }

  /** Jackson's reason and position, without echoing the (possibly huge) input. */
  private static String shortMessage(JsonProcessingException e) {
    String m = e.getOriginalMessage();
    if (m == null) {
      m = e.getClass().getSimpleName();
    }
    m = m.replaceAll("[\\r\\n]+", " ").replaceAll("\\[Source: [^;\\]]*; ", "[");
    if (m.length() > 200) {
      m = m.substring(0, 200) + "...";
    }
    var loc = e.getLocation();
    return loc == null
        ? m
        : m + " (line " + loc.getLineNr() + ", column " + loc.getColumnNr() + ")";
  }
}
