package io.symbolicate.api;

import io.symbolicate.api.server.Handler;
import io.symbolicate.api.server.ReadsWholeBody;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import java.io.IOException;

/**
 * What the JSON endpoints ({@link ShapeHandler}) and the file endpoints ({@link FileHandler})
 * share, over one {@link Symbolication}: the body received whole by the server against the
 * admission's byte budget, the scope a request may read (keys and CORS, {@link RequestScope}), and
 * admission once the body is there.
 */
public abstract class AdmittedHandler implements Handler, ReadsWholeBody {
  protected final ApiSymbolicator symbolicator;
  protected final ApiSettings settings;
  protected final Admission admission;
  private final Symbolication shared;

  AdmittedHandler(Symbolication shared) {
    this.symbolicator = shared.symbolicator();
    this.settings = shared.settings();
    this.admission = shared.admission();
    this.shared = shared;
  }

  @Override
  public int retryAfterSeconds() {
    return settings.retryAfterSeconds();
  }

  @Override
  public ReceiveBudget receiveBudget() {
    return admission;
  }

  /** The scope this request reads ({@link RequestScope}); a 401/403 before any work when refused. */
  protected final String scope(Request request, Response response) {
    return RequestScope.of(request, response, settings, shared.access());
  }

  /** The heap a body of this size may claim: {@code perByte} per byte, never more than the whole budget. */
  protected final long bodyClaim(long bodyBytes, int perByte) {
    return Math.min(settings.inFlightBytesBudget(), Math.max(1024, bodyBytes) * perByte);
  }

  /**
   * A work permit and {@code claim} bytes of the heap budget, or a 503 with Retry-After sent and
   * false: the caller then returns.
   */
  protected final boolean admit(Response response, long claim) throws IOException {
    if (admission.tryEnter(claim)) {
      return true;
    }
    response.header("Retry-After", String.valueOf(settings.retryAfterSeconds()));
    Exchanges.error(
        response, 503, "too many requests in flight, or too much request data; retry later");
    return false;
  }
}
