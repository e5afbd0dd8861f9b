package io.symbolicate.api;

/**
 * A request the API refuses, with the HTTP status (400 bad request, 413 too large, 503 busy)
 * and a reason the client can read; the server answers {@code {"error": reason}}.
 */
public final class ApiException extends RuntimeException {
  private final int status;

  public ApiException(int status, String reason) {
    super(reason);
    this.status = status;
  }

  public static ApiException badRequest(String reason) {
    return new ApiException(400, reason);
  }

  /** A request over a size limit (frames, modules, bytes): 413, as Mozilla's v5 for too many frames. */
  public static ApiException tooLarge(String reason) {
    return new ApiException(413, reason);
  }

  /**
   * A request over {@code http.max.frames}: more frames, more stacks or more modules than that
   * (each counted apart; an empty stack or an unused module costs heap as a frame does).
   */
  public static ApiException tooManyItems(long frames, long stacks, long modules, int limit) {
    return tooLarge(
        "request has "
            + frames
            + " frames, "
            + stacks
            + " stacks and "
            + modules
            + " modules; each may number at most "
            + limit
            + " (http.max.frames)");
  }

  /**
   * Frames, stacks or modules over {@code limit}: each counted apart, so that a request of
   * exactly {@code limit} frames in one stack still passes, while a body of ~1.7M empty stacks
   * does not.
   */
  public static boolean itemsOver(long frames, long stacks, long modules, long limit) {
    return frames > limit || stacks > limit || modules > limit;
  }

  public int status() {
    return status;
  }
}
