package io.symbolicate.api.upload;

import java.time.Duration;

/**
 * Bounds of the upload API (docs/api/symbols-upload.md): a bigger part, more parts or a bigger
 * assembled file is 413; more requests in flight on this instance, or more files in flight in
 * one scope (across instances: counted in the staging area), is 429. Parts of a file that does
 * not complete within {@code incompleteExpiry} of its last part are deleted.
 */
public record UploadLimits(
    long maxPartBytes,
    int maxParts,
    long maxFileBytes,
    int maxRequestsInFlight,
    int maxFilesInFlight,
    Duration incompleteExpiry) {
  public static final long DEFAULT_MAX_PART_BYTES = 64L << 20;
  public static final int DEFAULT_MAX_PARTS = 1024;
  public static final long DEFAULT_MAX_FILE_BYTES = 4L << 30;
  public static final int DEFAULT_MAX_REQUESTS_IN_FLIGHT = 8;
  public static final int DEFAULT_MAX_FILES_IN_FLIGHT = 64;
  public static final Duration DEFAULT_INCOMPLETE_EXPIRY = Duration.ofHours(24);

  public UploadLimits {
    if (maxPartBytes < 1
        || maxParts < 1
        || maxFileBytes < 1
        || maxRequestsInFlight < 0
        || maxFilesInFlight < 1
        || incompleteExpiry.isNegative()
        || incompleteExpiry.isZero()) {
      throw new IllegalArgumentException(
          "upload limits must be positive (requests in flight: not negative)");
    }
  }

  public static UploadLimits defaults() {
    return new UploadLimits(
        DEFAULT_MAX_PART_BYTES,
        DEFAULT_MAX_PARTS,
        DEFAULT_MAX_FILE_BYTES,
        DEFAULT_MAX_REQUESTS_IN_FLIGHT,
        DEFAULT_MAX_FILES_IN_FLIGHT,
        DEFAULT_INCOMPLETE_EXPIRY);
  }

  public UploadLimits withPartBytes(long bytes) {
    return new UploadLimits(
        bytes, maxParts, maxFileBytes, maxRequestsInFlight, maxFilesInFlight, incompleteExpiry);
  }

  public UploadLimits withParts(int parts) {
    return new UploadLimits(
        maxPartBytes, parts, maxFileBytes, maxRequestsInFlight, maxFilesInFlight, incompleteExpiry);
  }

  public UploadLimits withRequestsInFlight(int n) {
    return new UploadLimits(
        maxPartBytes, maxParts, maxFileBytes, n, maxFilesInFlight, incompleteExpiry);
  }

  public UploadLimits withFilesInFlight(int n) {
    return new UploadLimits(
        maxPartBytes, maxParts, maxFileBytes, maxRequestsInFlight, n, incompleteExpiry);
  }
}
