package io.symbolicate.api.upload;

/** A refused upload: the HTTP status, the document's error code and a reason for the client. */
public final class UploadError extends Exception {
  /** Error codes of the reply's {@code error.Code} (docs/api/symbols-upload.md). */
  public static final String INTERNAL = "1000";

  public static final String UNAUTHORIZED = "1001";
  public static final String FORBIDDEN = "1002";
  public static final String BAD_REQUEST = "1003";
  public static final String TOO_LARGE = "1004";
  public static final String BUSY = "1005";
  public static final String INVALID_FILE = "1006";
  public static final String QUOTA = "1007";

  final int status;
  final String code;

  public UploadError(int status, String code, String text) {
    super(text);
    this.status = status;
    this.code = code;
  }

  public int status() {
    return status;
  }

  public String code() {
    return code;
  }

  static UploadError badRequest(String text) {
    return new UploadError(400, BAD_REQUEST, text);
  }

  static UploadError invalidFile(String text) {
    return new UploadError(400, INVALID_FILE, text);
  }
}
