package io.symbolicate.api.multipart;

/** A {@code multipart/form-data} body that cannot be read, with the reason (a 400 for the client). */
public final class MultipartException extends Exception {
  public MultipartException(String reason) {
    super(reason, null, false, false);
  }
}
