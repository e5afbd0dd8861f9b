package io.symbolicate.connectors.s3;

import io.symbolicate.schema.RequestReason;
import io.symbolicate.schema.SymbolRequest;
import io.symbolicate.schema.serde.AvroSerde;
import io.symbolicate.schema.serde.WireSerdes;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Lists its prefixes of the symbol bucket and writes one {@code symbols.uploads} record per new
 * or changed symbol file: keyed {@code scope|kind|module_key} like the loader's requests, valued
 * a {@link SymbolRequest} with reason {@code upload} (the loader's wire format, bytes: run it with
 * the ByteArrayConverter), with the object's key, ETag, size and LastModified as headers.
 * While S3 fails the task stays running and lists again after a growing pause.
 */
public final class S3SourceTask extends SourceTask {
  private static final Logger log = LoggerFactory.getLogger(S3SourceTask.class);

  /** First pause after a failed listing; doubles up to {@code s3.retry.backoff.max.ms}. */
  static final long FIRST_BACKOFF_MS = 100;

  /** The longest poll() waits when nothing is due, so that stop() is not kept waiting long. */
  static final long MAX_IDLE_WAIT_MS = 1_000;

  private final AvroSerde<SymbolRequest> serde = WireSerdes.symbolRequest();
  private final Object wakeup = new Object();
  private volatile boolean stopping;
  private S3Client s3;
  private String topic;
  private long maxBackoffMs;
  private List<PrefixScanner> scanners;
  private int next;
  private int failures;

  @Override
  public String version() {
    return S3SourceConnector.VERSION;
  }

  @Override
  public void start(Map<String, String> props) {
    S3SourceConfig config = new S3SourceConfig(props);
    topic = config.getString(S3SourceConfig.TOPIC);
    maxBackoffMs = config.getLong(S3SourceConfig.RETRY_BACKOFF_MAX_MS);
    String bucket = config.getString(S3SourceConfig.BUCKET);
    List<String> prefixes = config.getList(S3SourceConfig.TASK_PREFIXES);
    if (prefixes == null || prefixes.isEmpty()) {
      prefixes = config.prefixes();
    }
    PrefixScanner.Settings settings =
        new PrefixScanner.Settings(
            config.getInt(S3SourceConfig.PAGE_SIZE),
            config.getLong(S3SourceConfig.POLL_INTERVAL_MS),
            config.getLong(S3SourceConfig.RECONCILE_INTERVAL_MS),
            config.getLong(S3SourceConfig.RECONCILE_LOOKBACK_MS));
    SeenKeys seen = new SeenKeys(config.getInt(S3SourceConfig.SEEN_KEYS_MAX));
    s3 = S3Clients.create(config);
    scanners = new ArrayList<>();
    for (String p : prefixes) {
      scanners.add(new PrefixScanner(s3, bucket, p, settings, seen));
    }
    var offsets =
        context
            .offsetStorageReader()
            .offsets(scanners.stream().map(PrefixScanner::partition).toList());
    long now = System.currentTimeMillis();
    for (PrefixScanner sc : scanners) {
      Map<String, Object> offset = offsets == null ? null : offsets.get(sc.partition());
      sc.start(offset, now);
      log.info(
          "watching s3://{}/{} from {}",
          bucket,
          sc.partition().get(PrefixScanner.PREFIX),
          offset == null ? "the beginning" : "after '" + offset.get(PrefixScanner.AFTER) + "'");
    }
  }

  @Override
  public List<SourceRecord> poll() throws InterruptedException {
    long deadline = System.currentTimeMillis() + MAX_IDLE_WAIT_MS;
    while (!stopping) {
      long now = System.currentTimeMillis();
      long due = Long.MAX_VALUE;
      for (int i = 0; i < scanners.size() && !stopping; i++) {
        PrefixScanner sc = scanners.get(next);
        next = (next + 1) % scanners.size();
        if (sc.dueAt() > now) {
          due = Math.min(due, sc.dueAt());
          continue;
        }
        List<Announcement> found;
        try {
          found = sc.step(now);
        } catch (SdkException e) {
          backOff(sc, e);
          return null;
        } catch (RuntimeException e) {
          if (stopping) {
            return null; // the client was closed under the listing
          }
          throw e;
        }
        if (failures > 0) {
          log.info("S3 answers again after {} failed listing(s)", failures);
          failures = 0;
        }
        if (!found.isEmpty()) {
          return records(sc, found);
        }
        due = Math.min(due, sc.dueAt());
      }
      long wait = Math.min(due, deadline) - System.currentTimeMillis();
      if (wait <= 0) {
        return null;
      }
      synchronized (wakeup) {
        if (!stopping) {
          wakeup.wait(wait);
        }
      }
    }
    return null;
  }

  private void backOff(PrefixScanner sc, SdkException e) throws InterruptedException {
    failures++;
    long pause = Math.min(maxBackoffMs, FIRST_BACKOFF_MS << Math.min(failures - 1, 20));
    // the SDK's message names the operation and status, never the credentials
    if (failures == 1 || Long.bitCount(failures) == 1) {
      log.warn(
          "listing s3://{}/{} failed ({} in a row), again in {} ms: {}",
          sc.partition().get(PrefixScanner.BUCKET),
          sc.partition().get(PrefixScanner.PREFIX),
          failures,
          pause,
          e.getMessage());
    }
    synchronized (wakeup) {
      if (!stopping) {
        wakeup.wait(pause);
      }
    }
  }

  private List<SourceRecord> records(PrefixScanner sc, List<Announcement> found) {
    List<SourceRecord> out = new ArrayList<>(found.size());
    long now = System.currentTimeMillis();
    for (Announcement a : found) {
      SymbolRequest req =
          SymbolRequest.newBuilder()
              .setScope(a.module().scope())
              .setPlatform(a.module().platform())
              .setModuleKey(a.module().key())
              .setReason(RequestReason.upload)
              .setRequestedAt(Instant.ofEpochMilli(now))
              .build();
      ConnectHeaders headers = new ConnectHeaders();
      headers.addString("s3.key", a.objectKey());
      headers.addString("s3.etag", a.etag());
      headers.addLong("s3.size", a.size());
      headers.addLong("s3.last.modified", a.lastModifiedMillis());
      out.add(
          new SourceRecord(
              sc.partition(),
              a.offset(),
              topic,
              null,
              Schema.BYTES_SCHEMA,
              a.module().toString().getBytes(StandardCharsets.UTF_8),
              Schema.BYTES_SCHEMA,
              serde.encode(req),
              null,
              headers));
    }
    log.debug(
        "announcing {} object(s) of s3://{}/{}",
        out.size(),
        sc.partition().get(PrefixScanner.BUCKET),
        sc.partition().get(PrefixScanner.PREFIX));
    return out;
  }

  @Override
  public void stop() {
    stopping = true;
    synchronized (wakeup) {
      wakeup.notifyAll();
    }
    if (s3 != null) {
      s3.close();
    }
  }
}
