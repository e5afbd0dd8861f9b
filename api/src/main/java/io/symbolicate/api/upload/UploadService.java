package io.symbolicate.api.upload;

import io.symbolicate.symbols.id.SymbolLayout;
import io.symbolicate.symbols.table.ModuleRef;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The upload routes' one service (docs/api/symbols-upload.md): stores a part in the staging
 * area, and the request whose part completes a file assembles it, has its format validate and
 * place it, writes it into the symbol store in the loader's layout, deletes the parts and
 * announces the module(s). Every state lives in the stores, so instances sharing them (behind a
 * load balancer) share uploads. Parts of files that never complete are swept after the limits'
 * expiry.
 *
 * <p>Staging layout: {@code <scope>/<format>.<id>/<i>-of-<N>}; parts of another {@code N} never
 * mix with these. Beside the folder, {@code <scope>/<format>.<id>.assembling} is the assembly's
 * claim (one winner among requests that complete a file at once) and {@code .assembled} marks a
 * stored file until the expiry.
 */
public final class UploadService implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(UploadService.class);

  /** An upload's id as it becomes part of a key: no slash, no dot-dot, bounded. */
  static final Pattern ID = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}");

  /** Ends the key of an upload's assembly claim ({@link #claimKey}). */
  static final String CLAIM_SUFFIX = ".assembling";

  /** Ends the key of an upload's mark of being stored ({@link #doneKey}). */
  static final String DONE_SUFFIX = ".assembled";

  /** A done mark holds one line per part: far below this. */
  static final int MAX_DONE_BYTES = 1 << 20;

  /** Staging objects one sweep looks at; the next sweep sees the rest. */
  static final int SWEEP_MAX_OBJECTS = 100_000;

  private final UploadStore symbols;
  private final UploadStore staging;
  private final Announcer announcer;
  private final UploadLimits limits;
  private final Semaphore requests;
  private ScheduledExecutorService sweeper;

  /** {@code upload.dir.max.scope.bytes}: 0 = none. */
  private volatile long maxScopeBytes;

  /** What the global scope's usage leaves out: the other scopes' folder, the staging folder. */
  private volatile Set<String> globalExcluded = Set.of(SCOPES_FOLDER);

  /** One assembly at a time per scope checks the quota and writes (on this instance). */
  private final ConcurrentHashMap<String, Object> scopeLocks = new ConcurrentHashMap<>();

  static final String SCOPES_FOLDER = "scopes/";

  public UploadService(
      UploadStore symbols, UploadStore staging, Announcer announcer, UploadLimits limits) {
    this.symbols = symbols;
    this.staging = staging;
    this.announcer = announcer;
    this.limits = limits;
    this.requests = new Semaphore(limits.maxRequestsInFlight());
  }

  /**
   * Bounds the bytes each scope's files take in the symbol store ({@code
   * upload.dir.max.scope.bytes}; 0: unbounded), and separately its staged parts, when the stores
   * count (a directory; S3 does not). {@code excludedFromGlobal}: folders of the symbol store
   * that are not the global scope's (the staging folder when it lies inside).
   */
  public UploadService withScopeQuota(long maxBytes, String... excludedFromGlobal) {
    if (maxBytes < 0) {
      throw new IllegalArgumentException("the scope quota must not be negative");
    }
    Set<String> excluded = new HashSet<>(Set.of(excludedFromGlobal));
    excluded.add(SCOPES_FOLDER);
    this.globalExcluded = Set.copyOf(excluded);
    this.maxScopeBytes = maxBytes;
    return this;
  }

  public long maxScopeBytes() {
    return maxScopeBytes;
  }

  public UploadLimits limits() {
    return limits;
  }

  /** Takes a request slot, or refuses with 429; give it back with {@link #leave()}. */
  public void enter() throws UploadError {
    if (!requests.tryAcquire()) {
      throw new UploadError(
          429,
          UploadError.BUSY,
          "more than "
              + limits.maxRequestsInFlight()
              + " upload requests in flight on this instance; retry later");
    }
  }

  public void leave() {
    requests.release();
  }

  /** The statuses the upload routes answer with, as the metrics count them. */
  public static final List<Integer> STATUSES =
      List.of(200, 400, 401, 403, 405, 408, 411, 413, 429, 500, 507);

  private final Map<Integer, LongAdder> answers = new ConcurrentHashMap<>();

  /** Counts an upload request's answer (any status; the metrics show {@link #STATUSES}). */
  public void answered(int status) {
    answers.computeIfAbsent(status, s -> new LongAdder()).increment();
  }

  /** Upload requests answered with {@code status} so far. */
  public long answers(int status) {
    LongAdder n = answers.get(status);
    return n == null ? 0 : n.sum();
  }

  /** Checks a part's numbers and announced length against the limits, before its body is read. */
  public void checkPart(int part, int parts, long length) throws UploadError {
    if (parts < 1) {
      throw UploadError.badRequest("FileParts must be at least 1");
    }
    if (parts > limits.maxParts()) {
      throw new UploadError(
          413,
          UploadError.TOO_LARGE,
          "FileParts "
              + parts
              + " is more than the limit of "
              + limits.maxParts()
              + " parts per file");
    }
    if (part < 0 || part >= parts) {
      throw UploadError.badRequest("FilePart must be in 0.." + (parts - 1));
    }
    if (length > limits.maxPartBytes()) {
      throw new UploadError(
          413,
          UploadError.TOO_LARGE,
          "a part of "
              + length
              + " bytes is more than the limit of "
              + limits.maxPartBytes()
              + " bytes per part");
    }
    if (length <= 0) {
      throw UploadError.badRequest("the part is empty");
    }
  }

  static String folder(String scope, UploadFormat format, String id) {
    return scope + "/" + format.stagingName() + "." + id + "/";
  }

  static String partKey(String scope, UploadFormat format, String id, int i, int n) {
    return folder(scope, format, id) + i + "-of-" + n;
  }

  /**
   * The claim of an upload's assembly, beside its folder (so not counted as a file in flight):
   * the one request that creates it assembles the file, and deletes it when done.
   */
  static String claimKey(String scope, UploadFormat format, String id) {
    return scope + "/" + format.stagingName() + "." + id + CLAIM_SUFFIX;
  }

  /**
   * Written once an upload's file is stored, before its parts are deleted: the SHA-256 of each
   * part ({@code <i>-of-<N> <hex>} lines). It stays until the expiry, so that a part sent again
   * (or late) with the same bytes answers "already assembled" and stages nothing, while other
   * bytes under the same id start a new upload (a file replaced).
   */
  static String doneKey(String scope, UploadFormat format, String id) {
    return scope + "/" + format.stagingName() + "." + id + DONE_SUFFIX;
  }

  /**
   * Stores part {@code part} of {@code parts} of upload {@code id} (its body in {@code body}),
   * and completes the file when this was its last missing part. Whatever this request staged is
   * removed when it fails; of requests that complete one file at once, one assembles it (a claim
   * in the staging store) and the others answer as if done.
   *
   * @return the modules announced, or an empty list while parts are missing (or another request
   *     assembles the file, or did)
   */
  public List<ModuleRef> receive(
      String scope, UploadFormat format, String id, int part, int parts, Path body)
      throws UploadError, IOException {
    if (id == null || !ID.matcher(id).matches()) {
      throw UploadError.badRequest("the upload id must match " + ID.pattern());
    }
    checkPart(part, parts, Files.size(body));
    String folder = folder(scope, format, id);
    String claim = claimKey(scope, format, id);
    String done = doneKey(scope, format, id);
    String name = part + "-of-" + parts;
    String digest = sha256(body);
    if (digest.equals(assembled(done).get(name))) {
      log.info("upload {} in scope {}: already assembled; part {} not staged", id, scope, name);
      return List.of();
    }
    if (staging.list(folder, 1).isEmpty()) {
      // a new file: within the scope's files in flight, counted across instances
      if (staging.folders(scope + "/", limits.maxFilesInFlight()).size()
          >= limits.maxFilesInFlight()) {
        throw new UploadError(
            429,
            UploadError.BUSY,
            "more than "
                + limits.maxFilesInFlight()
                + " files are being uploaded in scope "
                + scope
                + "; finish one (or let it expire) and retry");
      }
    }
    checkStagingQuota(scope, format, id, Files.size(body));
    String key = partKey(scope, format, id, part, parts);
    staging.put(key, body);
    try {
      Set<String> present = new HashSet<>();
      for (UploadStore.StoredObject o : staging.list(folder, 4 * limits.maxParts() + 4)) {
        present.add(o.key());
      }
      boolean complete = true;
      for (int i = 0; i < parts && complete; i++) {
        complete = present.contains(partKey(scope, format, id, i, parts));
      }
      if (!complete || !staging.claim(claim)) {
        // parts are missing, or another request assembles the file; if that one stored these
        // very bytes already, this part came late and would stay behind
        if (digest.equals(assembled(done).get(name))) {
          staging.delete(key);
        }
        return List.of();
      }
    } catch (IOException | RuntimeException e) {
      staging.delete(key); // this request failed: nothing of it stays staged
      throw e;
    }
    if (digest.equals(assembled(done).get(name))) {
      // the claim of an assembler that just finished (and deleted its parts) was free again, and
      // this request saw the parts before they went: nothing left to assemble
      staging.delete(claim);
      staging.delete(key);
      return List.of();
    }
    try {
      Map<String, String> digests = new LinkedHashMap<>();
      List<ModuleRef> modules = assemble(scope, format, id, parts, digests);
      markAssembled(done, digests);
      return modules;
    } finally {
      // the parts go whatever happened (a refused or failed file may be sent again), then the claim
      deleteParts(scope, format, id, parts);
      try {
        staging.delete(claim);
      } catch (IOException | RuntimeException e) {
        log.warn("could not delete the claim {} (the sweeper will): {}", claim, e.toString());
      }
    }
  }

  /** The parts' digests of a stored upload ({@link #doneKey}); empty when there is none. */
  private Map<String, String> assembled(String done) throws IOException {
    Map<String, String> out = new HashMap<>();
    try (InputStream in = staging.open(done)) {
      if (in == null) {
        return out;
      }
      byte[] b = in.readNBytes(MAX_DONE_BYTES);
      for (String line : new String(b, StandardCharsets.US_ASCII).split("\n")) {
        int sp = line.indexOf(' ');
        if (sp > 0) {
          out.put(line.substring(0, sp), line.substring(sp + 1).strip());
        }
      }
    }
    return out;
  }

  private void markAssembled(String done, Map<String, String> digests) throws IOException {
    StringBuilder b = new StringBuilder();
    digests.forEach((k, v) -> b.append(k).append(' ').append(v).append('\n'));
    Path tmp = Files.createTempFile("upload-done", ".tmp");
    try {
      Files.writeString(tmp, b, StandardCharsets.US_ASCII);
      staging.put(done, tmp);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  static String sha256(Path file) throws IOException {
    MessageDigest md = sha256();
    try (InputStream in = new DigestInputStream(Files.newInputStream(file), md)) {
      in.transferTo(OutputStream.nullOutputStream());
    }
    return HexFormat.of().formatHex(md.digest());
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private List<ModuleRef> assemble(
      String scope, UploadFormat format, String id, int parts, Map<String, String> digests)
      throws UploadError, IOException {
    Path work = Files.createTempDirectory("upload");
    try {
      Path whole = work.resolve("assembled");
      long total = 0;
      try (OutputStream out = Files.newOutputStream(whole)) {
        for (int i = 0; i < parts; i++) {
          try (InputStream in = staging.open(partKey(scope, format, id, i, parts))) {
            if (in == null) {
              throw new IOException(
                  "part " + i + " of upload " + id + " vanished while assembling");
            }
            MessageDigest md = sha256();
            total += new DigestInputStream(in, md).transferTo(out);
            digests.put(i + "-of-" + parts, HexFormat.of().formatHex(md.digest()));
          }
          if (total > limits.maxFileBytes()) {
            throw new UploadError(
                413,
                UploadError.TOO_LARGE,
                "the file is more than the limit of "
                    + limits.maxFileBytes()
                    + " bytes; its parts are deleted");
          }
        }
      }
      Path extracted = Files.createDirectory(work.resolve("extracted"));
      List<UploadFormat.Placement> placements;
      placements = format.place(scope, id, whole, extracted);
      checkExpansion(total, placements);
      synchronized (scopeLocks.computeIfAbsent(scope, s -> new Object())) {
        checkStoreQuota(scope, placements);
        for (UploadFormat.Placement p : placements) {
          symbols.put(p.key(), p.file());
        }
      }
      Set<ModuleRef> modules = new LinkedHashSet<>();
      for (UploadFormat.Placement p : placements) {
        modules.add(p.module());
        modules.addAll(p.alsoAnnounced());
      }
      for (ModuleRef m : modules) {
        try {
          announcer.announce(m);
        } catch (Exception e) {
          throw new IOException("the file is stored but " + m + " could not be announced: " + e, e);
        }
      }
      log.info(
          "upload {} ({}, scope {}) assembled from {} part(s), {} bytes: stored {} file(s), announced {}",
          id,
          format.stagingName(),
          scope,
          parts,
          total,
          placements.size(),
          modules);
      return List.copyOf(modules);
    } finally {
      deleteTree(work);
    }
  }

  /**
   * What a format extracted must stay within {@code upload.max.expansion.ratio} times the
   * upload's bytes (a 1.5 MB zip of one repeated line is 1.6 GB of {@code .sym}): 413 beyond.
   * A file placed as uploaded counts once.
   */
  private void checkExpansion(long uploaded, List<UploadFormat.Placement> placements)
      throws UploadError, IOException {
    long bound = limits.maxExpandedBytes(uploaded);
    long written = 0;
    for (UploadFormat.Placement p : placements) {
      written += Files.size(p.file());
      if (written > bound) {
        throw new UploadError(
            413,
            UploadError.TOO_LARGE,
            "the upload of "
                + uploaded
                + " bytes expands to more than "
                + bound
                + " bytes ("
                + limits.maxExpansionRatio()
                + " times its size, upload.max.expansion.ratio)");
      }
    }
  }

  private String quotaRefusal(String scope, String what, long used, long adding) {
    return "scope "
        + scope
        + " would pass its quota of "
        + maxScopeBytes
        + " bytes (upload.dir.max.scope.bytes): "
        + what
        + " take "
        + used
        + " bytes, and this would add "
        + adding;
  }

  /**
   * A scope's staged parts stay within the quota on their own (a refused part takes the
   * upload's other staged parts with it: the file can no longer complete).
   */
  private void checkStagingQuota(String scope, UploadFormat format, String id, long adding)
      throws UploadError, IOException {
    long max = maxScopeBytes;
    if (max <= 0) {
      return;
    }
    long used = staging.usage(scope + "/", Set.of());
    if (used >= 0 && used + adding > max) {
      for (UploadStore.StoredObject o :
          staging.list(folder(scope, format, id), 4 * limits.maxParts() + 4)) {
        staging.delete(o.key());
      }
      throw new UploadError(
          507, UploadError.QUOTA, quotaRefusal(scope, "its staged parts", used, adding));
    }
  }

  /**
   * The scope's files in the symbol store, less those this upload replaces, plus its own, stay
   * within the quota; called under the scope's lock so that two assemblies do not both fit.
   */
  private void checkStoreQuota(String scope, List<UploadFormat.Placement> placements)
      throws UploadError, IOException {
    long max = maxScopeBytes;
    if (max <= 0) {
      return;
    }
    String prefix = SymbolLayout.scopePrefix(scope);
    long used = symbols.usage(prefix, prefix.isEmpty() ? globalExcluded : Set.of());
    if (used < 0) {
      return; // a store that does not count (S3)
    }
    long adding = 0;
    long replaced = 0;
    Set<String> keys = new HashSet<>();
    for (UploadFormat.Placement p : placements) {
      adding += Files.size(p.file());
      if (keys.add(p.key())) {
        replaced += Math.max(0, symbols.size(p.key()));
      }
    }
    if (used - replaced + adding > max) {
      throw new UploadError(
          507,
          UploadError.QUOTA,
          quotaRefusal(scope, "its stored files", used, adding - replaced)
              + "; its parts are deleted");
    }
  }

  private void deleteParts(String scope, UploadFormat format, String id, int parts) {
    for (int i = 0; i < parts; i++) {
      String key = partKey(scope, format, id, i, parts);
      try {
        staging.delete(key);
      } catch (IOException | RuntimeException e) {
        log.warn("could not delete staged part {} (the sweeper will): {}", key, e.toString());
      }
    }
  }

  /**
   * Deletes the parts of every file whose newest part is older than the expiry at
   * {@code nowMillis}.
   *
   * @return the files (staging folders) removed
   */
  public int sweep(long nowMillis) throws IOException {
    Map<String, Long> newest = new HashMap<>();
    Map<String, List<String>> keys = new HashMap<>();
    for (UploadStore.StoredObject o : staging.list("", SWEEP_MAX_OBJECTS)) {
      int slash = o.key().lastIndexOf('/');
      // a claim stands alone; parts go by their upload's folder
      String folder =
          o.key().endsWith(CLAIM_SUFFIX) || o.key().endsWith(DONE_SUFFIX) || slash < 0
              ? o.key()
              : o.key().substring(0, slash + 1);
      newest.merge(folder, o.lastModifiedMillis(), Math::max);
      keys.computeIfAbsent(folder, f -> new ArrayList<>()).add(o.key());
    }
    int removed = 0;
    long expiry = limits.incompleteExpiry().toMillis();
    for (Map.Entry<String, Long> e : newest.entrySet()) {
      if (nowMillis - e.getValue() > expiry) {
        for (String k : keys.get(e.getKey())) {
          staging.delete(k);
        }
        removed++;
        log.info(
            "upload parts under {} expired (last part at {}): deleted",
            e.getKey(),
            Instant.ofEpochMilli(e.getValue()));
      }
    }
    return removed;
  }

  /** Sweeps every quarter of the expiry (between 1 s and 10 min) on a daemon thread. */
  public synchronized UploadService startSweeper() {
    if (sweeper == null) {
      sweeper =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "upload-sweeper");
                t.setDaemon(true);
                return t;
              });
      long every = Math.max(1000, Math.min(600_000, limits.incompleteExpiry().toMillis() / 4));
      sweeper.scheduleWithFixedDelay(
          () -> {
            try {
              sweep(System.currentTimeMillis());
            } catch (IOException | RuntimeException e) {
              log.warn(
                  "sweeping expired upload parts in {} failed; again later: {}",
                  staging.describe(),
                  e.toString());
            }
          },
          every,
          every,
          TimeUnit.MILLISECONDS);
    }
    return this;
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  log.warn("could not delete {}: {}", p, e.toString());
                }
              });
    } catch (IOException e) {
      log.warn("could not clean {}: {}", dir, e.toString());
    }
  }

  @Override
  public synchronized void close() {
    if (sweeper != null) {
      sweeper.shutdownNow();
    }
  }
}
