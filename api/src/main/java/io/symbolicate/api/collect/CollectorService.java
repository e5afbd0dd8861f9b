package io.symbolicate.api.collect;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.schema.Attachment;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.NativePayload;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.serde.WireSerdes;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The collector (docs/api/submit.md): reads a Breakpad/Crashpad crash report (multipart, already
 * decompressed), streams each dump into the store, and only then writes the crash event, a native
 * event that carries the main dump by reference, to {@code crash-events.raw}.
 *
 * <p>Nothing is lost between the two: before the event is sent, it is written beside the dumps as
 * a pending marker ({@code <prefix>pending/<crash id>}), deleted once the broker acknowledged it.
 * The producer retries on its own; a marker older than {@link CollectorLimits#resendAfter} (its
 * instance died, or the producer gave up) is sent again by the sweeper of any instance. An event
 * may so be written twice (same {@code event_id}), never not at all. A report that is refused
 * leaves no dump behind.
 */
public final class CollectorService implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(CollectorService.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The field of the crashing process's dump (Socorro's processor reads this one). */
  public static final String MAIN_DUMP = "upload_file_minidump";

  /** Socorro's form field holding every annotation as one JSON object. */
  public static final String EXTRA = "extra";

  /** Attributes the collector writes start with this; annotations may not. */
  public static final String ATTRIBUTE_PREFIX = "collector.";

  /** The dump fields of the report, main first, comma-separated. */
  public static final String ATTR_DUMPS = ATTRIBUTE_PREFIX + "dumps";

  /** {@code collector.dump.<field>.bucket|key|size|sha256}: a further dump's reference. */
  public static final String ATTR_DUMP = ATTRIBUTE_PREFIX + "dump.";

  /** A dump's field name becomes part of its object key. */
  static final Pattern DUMP_NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}");

  static final int MAX_NAME_CHARS = 128;

  /** Release parts longer than this are not a product or a version. */
  static final int MAX_RELEASE_PART_CHARS = 100;

  /** The folder of the pending markers, under the prefix. */
  static final String PENDING = "pending/";

  /** A marker is an encoded event: far below this. */
  static final int MAX_MARKER_BYTES = 8 << 20;

  /** Markers one sweep looks at; the next sweep sees the rest. */
  static final int SWEEP_MAX_OBJECTS = 10_000;

  /** How long the sweeper waits for one acknowledgement before it leaves the rest for later. */
  static final long SWEEP_SEND_TIMEOUT_MS = 30_000;

  private final DumpStore store;
  private final String prefix;
  private final EventSink sink;
  private final CollectorLimits limits;
  private final LongSupplier clock;
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong resent = new AtomicLong();
  private ScheduledExecutorService sweeper;

  /** What a report became: its crash id, and whether its event was acknowledged before the answer. */
  public record Accepted(String crashId, boolean sent) {}

  /** @param prefix put before every key ({@code ""}, or ending in {@code /}) */
  public CollectorService(
      DumpStore store, String prefix, EventSink sink, CollectorLimits limits, LongSupplier clock) {
    this.store = store;
    String p = prefix == null ? "" : prefix.strip();
    this.prefix = p.isEmpty() || p.endsWith("/") ? p : p + "/";
    this.sink = sink;
    this.limits = limits;
    this.clock = clock;
  }

  public CollectorLimits limits() {
    return limits;
  }

  /** The key of a dump: {@code <prefix><yyyy-mm-dd>/<crash id>/<field>.dmp}. */
  String dumpKey(LocalDate day, String crashId, String field) {
    return prefix + day + "/" + crashId + "/" + field + ".dmp";
  }

  String pendingKey(String crashId) {
    return prefix + PENDING + crashId;
  }

  /**
   * Receives one report.
   *
   * @param multipart the body, decompressed
   * @param carried the keys of the header and the query (empty: none; a form field may give one)
   */
  public Accepted submit(
      InputStream multipart, String boundary, List<SubmitKeys.Carried> carried, SubmitKeys keys)
      throws IOException {
    long now = clock.getAsLong();
    LocalDate day = LocalDate.ofInstant(Instant.ofEpochMilli(now), ZoneOffset.UTC);
    String crashId = CrashIds.create(day);
    String scope = keys.scopeOf(carried);
    SubmitKeys.Carried scopeFrom = carried.isEmpty() ? null : carried.get(0);
    MultipartReader reader = new MultipartReader(multipart, boundary);
    Map<String, DumpStore.Stored> dumps = new LinkedHashMap<>();
    Map<String, String> annotations = new LinkedHashMap<>();
    byte[] event;
    String marker = pendingKey(crashId);
    try {
      int fields = 0;
      long annotationBytes = 0;
      boolean json = false;
      boolean kv = false;
      MultipartReader.Part part;
      while ((part = reader.next()) != null) {
        String name = part.name();
        if (part.isFile()) {
          if (scope == null && keys.required()) {
            scope = keys.scopeWithoutKey(); // refuses: a required key must come before any dump
          }
          if (!DUMP_NAME.matcher(name).matches()) {
            throw SubmitException.badRequest(
                "bad_dump_name", "a file field's name must match " + DUMP_NAME.pattern());
          }
          if (dumps.containsKey(name)) {
            throw SubmitException.badRequest(
                "duplicate_dump", "the file field " + name + " is sent twice");
          }
          if (dumps.size() >= limits.maxDumps()) {
            throw SubmitException.tooLarge(
                "too_many_dumps", "more than " + limits.maxDumps() + " files in one report");
          }
          DumpStore.Stored s =
              store.put(
                  dumpKey(day, crashId, name),
                  new SizeLimitedInput(
                      reader.body(), limits.maxDumpBytes(), "dump_too_large", "the file " + name));
          dumps.put(name, s);
          if (s.size() == 0) {
            throw SubmitException.badRequest("empty_dump", "the file " + name + " is empty");
          }
          continue;
        }
        if (name.equals(SubmitKeys.FIELD)) {
          String key = text(reader.body(), ApiKeys.MAX_KEY_CHARS, "the api_key field").strip();
          if (key.isEmpty()) {
            continue; // an empty field carries no key
          }
          SubmitKeys.Carried field = new SubmitKeys.Carried("api_key field", key);
          String s = keys.scope(field);
          if (scope != null && !scope.equals(s)) {
            // a report stored without a key (optional keys) then named another scope: refused too
            throw SubmitKeys.conflict(
                scopeFrom != null ? scopeFrom : new SubmitKeys.Carried("report so far", ""), field);
          }
          if (scope == null) {
            scopeFrom = field;
          }
          scope = s;
          continue;
        }
        checkName(name);
        if (name.equals(EXTRA)
            && part.contentType() != null
            && part.contentType().toLowerCase(Locale.ROOT).startsWith("application/json")) {
          if (json) {
            throw SubmitException.badRequest("malformed_extra", "more than one extra field");
          }
          json = true;
          String text = text(reader.body(), limits.maxAnnotationBytes(), "the extra field");
          JsonNode root;
          try {
            root = JSON.readTree(text);
          } catch (JsonProcessingException e) {
            throw SubmitException.badRequest(
                "malformed_extra", "the extra field is not JSON: " + e.getOriginalMessage());
          }
          if (root == null || !root.isObject()) {
            throw SubmitException.badRequest(
                "malformed_extra", "the extra field is not a JSON object");
          }
          for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            checkName(e.getKey());
            String v = e.getValue().isTextual() ? e.getValue().asText() : e.getValue().toString();
            if (v.length() > limits.maxFieldBytes()) {
              throw SubmitException.tooLarge(
                  "field_too_large",
                  "the annotation "
                      + e.getKey()
                      + " is more than the limit of "
                      + limits.maxFieldBytes()
                      + " bytes");
            }
            fields = countField(fields);
            annotationBytes = countBytes(annotationBytes, e.getKey(), v);
            annotations.put(e.getKey(), v);
          }
        } else {
          kv = true;
          String v = text(reader.body(), limits.maxFieldBytes(), "the annotation " + name);
          fields = countField(fields);
          annotationBytes = countBytes(annotationBytes, name, v);
          annotations.put(name, v);
        }
        if (json && kv) {
          throw SubmitException.badRequest(
              "has_json_and_kv",
              "annotations come as form fields or as one " + "extra JSON field, not both");
        }
      }
      // the epilogue, if any, to the end: a gzip body's checksum is verified there
      multipart.transferTo(OutputStream.nullOutputStream());
      if (scope == null) {
        scope = keys.scopeWithoutKey();
      }
      DumpStore.Stored main = dumps.get(MAIN_DUMP);
      if (main == null) {
        throw SubmitException.badRequest(
            "no_minidump",
            "no "
                + MAIN_DUMP
                + " file in the report"
                + (dumps.isEmpty() ? "" : " (only " + String.join(", ", dumps.keySet()) + ")"));
      }
      event = WireSerdes.crashEvent().encode(event(crashId, scope, now, annotations, dumps));
      store.putSmall(marker, event);
    } catch (IOException | RuntimeException e) {
      for (DumpStore.Stored s : dumps.values()) {
        try {
          store.delete(s.key());
        } catch (IOException d) {
          log.warn("could not delete {} of refused report {}: {}", s.key(), crashId, d.toString());
        }
      }
      throw e;
    }
    accepted.incrementAndGet();
    return new Accepted(crashId, send(crashId, event, marker));
  }

  /** Sends the event; true once acknowledged within the wait, else it stays pending (the producer goes on). */
  private boolean send(String crashId, byte[] event, String marker) {
    CompletableFuture<Void> f;
    try {
      f = sink.send(crashId, event);
    } catch (RuntimeException e) {
      f = CompletableFuture.failedFuture(e);
    }
    CompletableFuture<Boolean> done =
        f.handle(
            (v, e) -> {
              if (e != null) {
                log.warn(
                    "crash {}: its event could not be written ({}); pending in {}, the sweeper sends it again",
                    crashId,
                    e.toString(),
                    marker);
                return false;
              }
              try {
                store.delete(marker);
              } catch (IOException d) {
                log.warn(
                    "crash {}: written, but its pending marker could not be deleted ({}); it may be written twice",
                    crashId,
                    d.toString());
              }
              return true;
            });
    try {
      return done.get(limits.sendWait().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      log.info(
          "crash {}: not acknowledged within {} ms; answered, its event is pending",
          crashId,
          limits.sendWait().toMillis());
      return false;
    } catch (ExecutionException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private CrashEvent event(
      String crashId,
      String scope,
      long now,
      Map<String, String> annotations,
      Map<String, DumpStore.Stored> dumps) {
    Map<String, String> attributes = new LinkedHashMap<>(annotations);
    List<String> names = new ArrayList<>(dumps.keySet());
    names.remove(MAIN_DUMP);
    names.add(0, MAIN_DUMP);
    attributes.put(ATTR_DUMPS, String.join(",", names));
    for (DumpStore.Stored s : dumps.values()) {
      String field =
          s.key().substring(s.key().lastIndexOf('/') + 1, s.key().length() - ".dmp".length());
      if (!field.equals(MAIN_DUMP)) {
        attributes.put(ATTR_DUMP + field + ".bucket", s.bucket());
        attributes.put(ATTR_DUMP + field + ".key", s.key());
        attributes.put(ATTR_DUMP + field + ".size", Long.toString(s.size()));
        attributes.put(ATTR_DUMP + field + ".sha256", s.sha256());
      }
    }
    DumpStore.Stored main = dumps.get(MAIN_DUMP);
    Attachment minidump =
        Attachment.newBuilder()
            .setBucket(main.bucket())
            .setKey(main.key())
            .setSize(main.size())
            .setSha256(main.sha256())
            .setData(null)
            .setText(null)
            .build();
    return CrashEvent.newBuilder()
        .setEventId(crashId)
        .setScope(scope)
        .setReceivedAt(Instant.ofEpochMilli(now))
        .setPlatform(Platform.native$)
        .setRelease(release(annotations))
        .setDist(null)
        .setAttributes(attributes)
        .setNative$(
            NativePayload.newBuilder()
                .setArch(null)
                .setModules(List.of())
                .setMinidump(minidump)
                .setAppleCrashReport(null)
                .setThreads(List.of())
                .build())
        .setJavascript(null)
        .setJvm(null)
        .build();
  }

  /**
   * {@code <product>@<version>} from Socorro's {@code ProductName} and {@code Version} (or
   * Breakpad's {@code prod} and {@code ver}); null unless both are there, short and printable.
   */
  static String release(Map<String, String> annotations) {
    String product = first(annotations, "ProductName", "prod");
    String version = first(annotations, "Version", "ver");
    if (!sensible(product) || !sensible(version)) {
      return null;
    }
    return product.strip() + "@" + version.strip();
  }

  private static String first(Map<String, String> m, String a, String b) {
    String v = m.get(a);
    return v != null ? v : m.get(b);
  }

  private static boolean sensible(String s) {
    if (s == null || s.isBlank() || s.strip().length() > MAX_RELEASE_PART_CHARS) {
      return false;
    }
    return s.strip().codePoints().noneMatch(c -> Character.isISOControl(c) || c == '@');
  }

  private static void checkName(String name) throws SubmitException {
    if (name.length() > MAX_NAME_CHARS || name.chars().anyMatch(Character::isISOControl)) {
      throw SubmitException.badRequest(
          "bad_field_name",
          "a field name must be at most "
              + MAX_NAME_CHARS
              + " characters without control characters");
    }
    if (name.startsWith(ATTRIBUTE_PREFIX)) {
      throw SubmitException.badRequest(
          "bad_field_name",
          "field names starting with '" + ATTRIBUTE_PREFIX + "' are the collector's own: " + name);
    }
  }

  private int countField(int fields) throws SubmitException {
    if (fields + 1 > limits.maxFields()) {
      throw SubmitException.tooLarge(
          "too_many_fields", "more than " + limits.maxFields() + " annotations");
    }
    return fields + 1;
  }

  private long countBytes(long total, String name, String value) throws SubmitException {
    long t = total + name.length() + value.length();
    if (t > limits.maxAnnotationBytes()) {
      throw SubmitException.tooLarge(
          "annotations_too_large",
          "the annotations are more than the limit of "
              + limits.maxAnnotationBytes()
              + " bytes together");
    }
    return t;
  }

  /** A field's value as UTF-8 text, at most {@code max} bytes (413 beyond). */
  private static String text(InputStream in, int max, String what) throws IOException {
    byte[] b = in.readNBytes(max + 1);
    if (b.length > max) {
      throw SubmitException.tooLarge(
          "field_too_large", what + " is more than the limit of " + max + " bytes");
    }
    return new String(b, StandardCharsets.UTF_8);
  }

  /**
   * Sends again the events of pending markers older than {@link CollectorLimits#resendAfter} at
   * {@code nowMillis}, deleting each marker once acknowledged; stops at the first failure (the
   * broker is still away: the next sweep goes on).
   *
   * @return the events sent again
   */
  public int sweep(long nowMillis) throws IOException {
    int sent = 0;
    for (DumpStore.Listed l : store.list(prefix + PENDING, SWEEP_MAX_OBJECTS)) {
      if (nowMillis - l.lastModifiedMillis() < limits.resendAfter().toMillis()) {
        continue;
      }
      String crashId = l.key().substring((prefix + PENDING).length());
      byte[] event = store.getSmall(l.key(), MAX_MARKER_BYTES);
      if (event == null) {
        continue; // acknowledged meanwhile
      }
      try {
        sink.send(crashId, event).get(SWEEP_SEND_TIMEOUT_MS, TimeUnit.MILLISECONDS);
      } catch (ExecutionException | TimeoutException e) {
        log.warn(
            "pending crash {} could not be sent again ({}); next sweep", crashId, e.toString());
        break;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      store.delete(l.key());
      sent++;
      resent.incrementAndGet();
      log.info(
          "pending crash {} sent again (pending since {})",
          crashId,
          Instant.ofEpochMilli(l.lastModifiedMillis()));
    }
    return sent;
  }

  /** Sweeps every {@link CollectorLimits#sweepInterval} on a daemon thread. */
  public synchronized CollectorService startSweeper() {
    if (sweeper == null) {
      sweeper =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "collector-sweeper");
                t.setDaemon(true);
                return t;
              });
      long every = limits.sweepInterval().toMillis();
      sweeper.scheduleWithFixedDelay(
          () -> {
            try {
              sweep(clock.getAsLong());
            } catch (IOException | RuntimeException e) {
              log.warn(
                  "sweeping the collector's pending events failed; again later: {}", e.toString());
            }
          },
          every,
          every,
          TimeUnit.MILLISECONDS);
    }
    return this;
  }

  /** Reports accepted since the start. */
  public long accepted() {
    return accepted.get();
  }

  /** Events written by the sweeper since the start. */
  public long resent() {
    return resent.get();
  }

  @Override
  public synchronized void close() {
    if (sweeper != null) {
      sweeper.shutdownNow();
    }
  }
}
