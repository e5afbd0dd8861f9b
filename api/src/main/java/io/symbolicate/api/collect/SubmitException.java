package io.symbolicate.api.collect;

import java.io.IOException;

/**
 * A crash report the collector refuses, with the HTTP status, a short code in Socorro's style
 * ({@code no_boundary}, {@code bad_gzip}, ...) and a reason a person can read. An
 * {@link IOException} so that it passes through the streams (gunzip, multipart) that detect it.
 */
public final class SubmitException extends IOException {
  private final int status;
  private final String code;

  public SubmitException(int status, String code, String reason) {
    super(reason);
    this.status = status;
    this.code = code;
  }

  static SubmitException badRequest(String code, String reason) {
    return new SubmitException(400, code, reason);
  }

  static SubmitException tooLarge(String code, String reason) {
    return new SubmitException(413, code, reason);
  }

  public int status() {
    return status;
  }

  /** The short code of the answer's {@code Discarded=} line. */
  public String code() {
    return code;
  }
}
