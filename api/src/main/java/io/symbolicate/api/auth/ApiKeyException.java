package io.symbolicate.api.auth;

/** A request whose key is missing (401) or not allowed what it asks (403), with the reason. */
public final class ApiKeyException extends Exception {
  private final int status;

  ApiKeyException(int status, String reason) {
    super(reason);
    this.status = status;
  }

  /** 401 (no usable key) or 403 (a key that is not ours, or not for this scope or action). */
  public int status() {
    return status;
  }
}
