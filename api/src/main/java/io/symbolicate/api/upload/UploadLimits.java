package io.symbolicate.api.upload;

/** Bounds of the upload API: a bigger part is 413, more files in flight 429. */
public record UploadLimits(long maxPartBytes, int maxParts, int maxInFlight) {
  public static final long DEFAULT_MAX_PART_BYTES = 64L << 20;
  public static final int DEFAULT_MAX_PARTS = 1024;
  public static final int DEFAULT_MAX_IN_FLIGHT = 8;

  public static UploadLimits defaults() {
    return new UploadLimits(DEFAULT_MAX_PART_BYTES, DEFAULT_MAX_PARTS, DEFAULT_MAX_IN_FLIGHT);
  }
}
