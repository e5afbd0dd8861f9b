package io.symbolicate.api.upload;

import java.time.Duration;

/**
 * Bounds of the upload API (docs/api/symbols-upload.md): a bigger part, more parts or a bigger
 * assembled file is 413; more requests in flight on this instance, or more files in flight in
 * one scope (across instances: counted in the staging area), is 429. Parts of a file that does
 * not complete within {@code incompleteExpiry} of its last part are deleted. What a format
 * extracts from an upload (a zip's entries) is at most {@code maxExpansionRatio} times its bytes.
 */
public record UploadLimits(
    long maxPartBytes,
    int maxParts,
    long maxFileBytes,
    int maxRequestsInFlight,
    int maxFilesInFlight,
    Duration incompleteExpiry,
    int maxExpansionRatio) {
  public static final long DEFAULT_MAX_PART_BYTES = 64L << 20;
  public static final int DEFAULT_MAX_PARTS = 1024;
  public static final long DEFAULT_MAX_FILE_BYTES = 4L << 30;
  public static final int DEFAULT_MAX_REQUESTS_IN_FLIGHT = 8;
  public static final int DEFAULT_MAX_FILES_IN_FLIGHT = 64;
  public static final Duration DEFAULT_INCOMPLETE_EXPIRY = Duration.ofHours(24);

  /**
   * Breakpad text compresses about 5 to 10 times in a zip; 20 leaves room for that and refuses a
   * zip built to expand (1.5 MB to 1.6 GB is 1,000 times).
   */
  public static final int DEFAULT_MAX_EXPANSION_RATIO = 20;

  public UploadLimits {
    if (maxPartBytes < 1
        || maxParts < 1
        || maxFileBytes < 1
        || maxRequestsInFlight < 0
        || maxFilesInFlight < 1
        || incompleteExpiry.isNegative()
        || incompleteExpiry.isZero()
        || maxExpansionRatio < 1) {
      throw new IllegalArgumentException(
          "upload limits must be positive (requests in flight: not negative)");
    }
  }

  /** With the default expansion ratio. */
  public UploadLimits(
      long maxPartBytes,
      int maxParts,
      long maxFileBytes,
      int maxRequestsInFlight,
      int maxFilesInFlight,
      Duration incompleteExpiry) {
    this(
        maxPartBytes,
        maxParts,
        maxFileBytes,
        maxRequestsInFlight,
        maxFilesInFlight,
        incompleteExpiry,
        DEFAULT_MAX_EXPANSION_RATIO);
  }

  /**
   * The bytes an upload of {@code uploaded} bytes may become once a format extracted it: {@code
   * maxExpansionRatio} times, counting at least 1 MiB (a small zip of a small file);
   * no more than the ratio allows: each extracted file is also bounded by {@code maxFileBytes}.
   */
  public long maxExpandedBytes(long uploaded) {
    long r = Math.max(uploaded, 1L << 20) * maxExpansionRatio;
    return r < 0 ? Long.MAX_VALUE : r;
  }

  public UploadLimits withExpansionRatio(int ratio) {
    return new UploadLimits(
        maxPartBytes,
        maxParts,
        maxFileBytes,
        maxRequestsInFlight,
        maxFilesInFlight,
        incompleteExpiry,
        ratio);
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
        bytes,
        maxParts,
        maxFileBytes,
        maxRequestsInFlight,
        maxFilesInFlight,
        incompleteExpiry,
        maxExpansionRatio);
  }

  public UploadLimits withParts(int parts) {
    return new UploadLimits(
        maxPartBytes,
        parts,
        maxFileBytes,
        maxRequestsInFlight,
        maxFilesInFlight,
        incompleteExpiry,
        maxExpansionRatio);
  }

  public UploadLimits withRequestsInFlight(int n) {
    return new UploadLimits(
        maxPartBytes,
        maxParts,
        maxFileBytes,
        n,
        maxFilesInFlight,
        incompleteExpiry,
        maxExpansionRatio);
  }

  public UploadLimits withFilesInFlight(int n) {
    return new UploadLimits(
        maxPartBytes,
        maxParts,
        maxFileBytes,
        maxRequestsInFlight,
        n,
        incompleteExpiry,
        maxExpansionRatio);
  }
}
