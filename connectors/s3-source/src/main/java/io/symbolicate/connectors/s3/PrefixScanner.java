package io.symbolicate.connectors.s3;

import io.symbolicate.symbols.table.ModuleRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Lists one prefix of the bucket, one ListObjectsV2 page per {@link #step}, and says which
 * objects to announce.
 *
 * <p>Two listings share the prefix. The incremental one starts after the last key it listed (the
 * source offset {@value #AFTER}), so a new key that sorts after it is announced on the next
 * page. The reconciliation lists the whole prefix every {@code reconcile.interval.ms}: it
 * announces a key at or below the offset whose ETag differs from the remembered one, or, when the
 * key is not remembered ({@link SeenKeys} is bounded and empty after a restart), whose
 * LastModified is not older than the start of the previous completed reconciliation (offset
 * {@value #RECONCILED}) minus {@code reconcile.lookback.ms}: what was written since that listing
 * (a late writer, an overwrite) is announced, what it already covered is not announced again.
 */
final class PrefixScanner {
  private static final Logger log = LoggerFactory.getLogger(PrefixScanner.class);
  static final String BUCKET = "bucket";
  static final String PREFIX = "prefix";
  static final String AFTER = "after";
  static final String RECONCILED = "reconciled";

  /** How often a task may list, and how much it remembers. */
  record Settings(int pageSize, long pollIntervalMs, long reconcileIntervalMs, long lookbackMs) {}

  private final S3Client s3;
  private final String bucket;
  private final String prefix;
  private final Settings settings;
  private final SeenKeys seen;
  private final Map<String, Object> partition;

  /** The last key the incremental listing saw ("" before the first). */
  private String after = "";

  /** When the last completed reconciliation began (epoch ms). */
  private long reconciledAt;

  private long nextListAt;
  private long nextReconcileAt;

  /** The reconciliation's position (null when none runs), and when it began. */
  private String reconcileCursor;

  private long reconcileStartedAt;
  private long skipped;
  private int reconcileAnnounced;

  PrefixScanner(S3Client s3, String bucket, String prefix, Settings settings, SeenKeys seen) {
    this.s3 = s3;
    this.bucket = bucket;
    this.prefix = prefix;
    this.settings = settings;
    this.seen = seen;
    this.partition = Map.of(BUCKET, bucket, PREFIX, prefix);
  }

  /** The Connect source partition of this prefix. */
  Map<String, Object> partition() {
    return partition;
  }

  /**
   * Starts from a committed offset (null: a first start, the incremental listing then covers
   * the whole prefix). After a restart the reconciliation runs at once, to find the keys written
   * below the offset while the task was away.
   */
  void start(Map<String, Object> offset, long now) {
    if (offset == null || !(offset.get(AFTER) instanceof String a)) {
      after = "";
      reconciledAt = now;
      nextReconcileAt = now + settings.reconcileIntervalMs();
    } else {
      after = a;
      reconciledAt = offset.get(RECONCILED) instanceof Number n ? n.longValue() : 0L;
      nextReconcileAt = now;
    }
    nextListAt = now;
  }

  /** Objects skipped as not symbol files of a known layout, since the start. */
  long skipped() {
    return skipped;
  }

  /** When this scanner next has something to do. */
  long dueAt() {
    return reconcileCursor != null ? 0 : Math.min(nextListAt, nextReconcileAt);
  }

  /**
   * One listing page, if one is due: the objects to announce, in key order. S3 errors propagate
   * (an SdkException) and leave the position unchanged, so the same page is asked again.
   */
  List<Announcement> step(long now) {
    if (reconcileCursor != null || now >= nextReconcileAt) {
      return reconcilePage(now);
    }
    if (now >= nextListAt) {
      return incrementalPage(now);
    }
    return List.of();
  }

  private List<Announcement> incrementalPage(long now) {
    ListObjectsV2Response page = list(after);
    List<Announcement> out = new ArrayList<>();
    for (S3Object o : page.contents()) {
      if (o.key().compareTo(after) <= 0) {
        continue; // a server that ignores StartAfter
      }
      after = o.key();
      consider(o, false, out);
    }
    nextListAt = Boolean.TRUE.equals(page.isTruncated()) ? now : now + settings.pollIntervalMs();
    return out;
  }

  private List<Announcement> reconcilePage(long now) {
    if (reconcileCursor == null) {
      reconcileCursor = "";
      reconcileStartedAt = now;
      reconcileAnnounced = 0;
    }
    ListObjectsV2Response page = list(reconcileCursor);
    List<Announcement> out = new ArrayList<>();
    for (S3Object o : page.contents()) {
      if (o.key().compareTo(reconcileCursor) <= 0) {
        continue;
      }
      reconcileCursor = o.key();
      if (o.key().compareTo(after) <= 0) {
        consider(o, true, out); // keys after the offset are the incremental listing's
      }
    }
    reconcileAnnounced += out.size();
    if (!Boolean.TRUE.equals(page.isTruncated())) {
      reconciledAt = reconcileStartedAt;
      reconcileCursor = null;
      nextReconcileAt = now + settings.reconcileIntervalMs();
      log.info(
          "reconciled s3://{}/{}: {} late or changed object(s) announced, {} skipped so far",
          bucket,
          prefix,
          reconcileAnnounced,
          skipped);
    }
    return out;
  }

  /**
   * The first bytes of an object (a ranged GET; none of an object too short to hold them, which
   * the loader will find malformed): what kind of PDB it is.
   */
  private byte[] head(S3Object o) {
    if (o.size() == null || o.size() < 4) {
      return new byte[0];
    }
    return s3.getObjectAsBytes(b -> b.bucket(bucket).key(o.key()).range("bytes=0-3")).asByteArray();
  }

  private void consider(S3Object o, boolean reconciling, List<Announcement> out) {
    ModuleRef module = SymbolObjectKeys.moduleOf(o.key());
    if (module == null) {
      skipped++;
      log.debug("s3://{}/{} is not a symbol file of a known layout: skipped", bucket, o.key());
      return;
    }
    String etag = o.eTag() == null ? "" : o.eTag();
    String known = seen.etag(o.key());
    // a PDB's or an image's first bytes say which module it is: read once per new or changed
    // object (an unchanged one is not announced again below)
    if (!etag.equals(known)) {
      if (SymbolObjectKeys.isPdb(o.key(), module)) {
        if (SymbolObjectKeys.isPortablePdb(head(o))) {
          module = SymbolObjectKeys.asDotnet(module);
        }
      } else if (SymbolObjectKeys.isImage(o.key(), module)) {
        ModuleRef pdb = SymbolObjectKeys.asPdbModule(module);
        if (pdb != null && SymbolObjectKeys.isPeImage(head(o))) {
          module = pdb;
        } else if (!SymbolObjectKeys.hasElfOrMachOId(module)) {
          // not a PE image, and not an ELF or Mach-O id either: nothing the loader reads there
          skipped++;
          log.debug("s3://{}/{} is not a PE image under a PDB id: skipped", bucket, o.key());
          return;
        }
      }
    }
    long modified = o.lastModified() == null ? Long.MAX_VALUE : o.lastModified().toEpochMilli();
    if (known != null) {
      if (known.equals(etag)) {
        return;
      }
    } else if (reconciling && modified < wholeSeconds(reconciledAt - settings.lookbackMs())) {
      // listed by the previous reconciliation already (or by the listing before the offset)
      seen.remember(o.key(), etag);
      return;
    }
    seen.remember(o.key(), etag);
    Map<String, Object> offset = new HashMap<>();
    offset.put(AFTER, after);
    offset.put(RECONCILED, reconciledAt);
    out.add(
        new Announcement(
            module,
            o.key(),
            etag,
            o.size() == null ? -1 : o.size(),
            o.lastModified() == null ? -1 : modified,
            offset));
  }

  /** The current offset, as the next announcement would carry it. */
  Map<String, Object> offset() {
    return Map.of(AFTER, after, RECONCILED, reconciledAt);
  }

  private ListObjectsV2Response list(String startAfter) {
    ListObjectsV2Request.Builder b =
        ListObjectsV2Request.builder().bucket(bucket).maxKeys(settings.pageSize());
    if (!prefix.isEmpty()) {
      b.prefix(prefix);
    }
    if (!startAfter.isEmpty()) {
      b.startAfter(startAfter);
    }
    return s3.listObjectsV2(b.build());
  }

  /**
   * S3 gives Last-Modified in whole seconds: an object written in the same second as the previous
   * reconciliation began would otherwise look older than that pass and never be announced.
   */
  private static long wholeSeconds(long millis) {
    return Math.floorDiv(millis, 1000L) * 1000L;
  }
}
