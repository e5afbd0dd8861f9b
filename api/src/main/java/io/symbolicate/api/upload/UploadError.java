package io.symbolicate.api.upload;

/** A refused upload: the HTTP status, the document's error code and a reason for the client. */
final class UploadError extends Exception {
  /** Error codes of the reply's {@code error.Code} (docs/api/symbols-upload.md). */
  static final String INTERNAL = "1000";
  static final String UNAUTHORIZED = "1001";
  static final String FORBIDDEN = "1002";
  static final String BAD_REQUEST = "1003";
  static final String TOO_LARGE = "1004";
  static final String BUSY = "1005";
  static final String INVALID_FILE = "1006";

  final int status;
  final String code;

  UploadError(int status, String code, String text) {
    super(text);
    this.status = status;
    this.code = code;
  }
}
