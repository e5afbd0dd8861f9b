package io.symbolicate.symbols.sources;

/**
 * How much of a source bundle is read: a bundle decompressing to more than {@code maxTotalBytes}
 * (a zip bomb) or with more than {@code maxEntries} entries is refused; a file over {@code
 * maxFileBytes} is skipped (its bytes still count against the total, as they are inflated to be
 * skipped).
 */
public record SourceBundleLimits(
    long maxTotalBytes, int maxFileBytes, int maxEntries, int maxManifestBytes) {

  /** 256 MiB decompressed, 8 MiB per file, 100,000 entries, a 32 MiB manifest. */
  public static final SourceBundleLimits DEFAULT =
      new SourceBundleLimits(256L << 20, 8 << 20, 100_000, 32 << 20);

  public SourceBundleLimits {
    if (maxTotalBytes <= 0 || maxFileBytes <= 0 || maxEntries <= 0 || maxManifestBytes <= 0) {
      throw new IllegalArgumentException("source bundle limits must be positive");
    }
  }
}
