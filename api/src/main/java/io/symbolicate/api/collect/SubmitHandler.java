package io.symbolicate.api.collect;

import io.symbolicate.api.Admission;
import io.symbolicate.api.server.Handler;
import io.symbolicate.api.server.ReadsWholeBody;
import io.symbolicate.api.server.ReceiveBytes;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import io.symbolicate.api.server.StreamsBody;
import io.symbolicate.symbols.io.WatchedInput;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /submit} (docs/api/submit.md): a crash report as Breakpad's and Crashpad's clients
 * send it, answered {@code CrashID=bp-<crash id>} as Socorro's collector does; a refusal is
 * {@code Discarded=<code>} and the reason on a second line, with its status. The body is read as a
 * stream on the handler's thread (at the server's minimum rate), decompressed when gzip, and
 * counted on the way: nothing holds it whole.
 */
public final class SubmitHandler implements Handler, StreamsBody {
  private static final Logger log = LoggerFactory.getLogger(SubmitHandler.class);

  /** A refused body is read on and discarded up to this, so that the client sees the answer. */
  static final long DRAIN_CAP = 16L << 20;

  /** ... for at most this long. */
  static final long DRAIN_MILLIS = 2_000;

  /** The gunzip buffer. */
  static final int GZIP_BUFFER = 64 << 10;

  private final CollectorService service;
  private final SubmitKeys keys;
  private final Admission admission;

  /** What one report may hold of the heap: a store part, a multipart buffer, its annotations twice. */
  private final long claim;

  public SubmitHandler(CollectorService service, SubmitKeys keys) {
    this(service, keys, SLOT_GRACE, RECEIVED_FIRST);
  }

  /**
   * {@code slotGrace}: see {@link #SLOT_GRACE}; {@code receivedFirst}: see {@link
   * #RECEIVED_FIRST} (tests that hold a slot with a small body on purpose narrow it, or widen the
   * grace).
   */
  SubmitHandler(CollectorService service, SubmitKeys keys, Duration slotGrace, int receivedFirst) {
    this.service = service;
    this.keys = keys;
    this.slotGrace = slotGrace;
    CollectorLimits l = service.limits();
    this.claim =
        S3DumpStore.PART_BYTES + MultipartReader.BUFFER + GZIP_BUFFER + 2L * l.maxAnnotationBytes();
    // the server's admission: N at once, each claiming what it holds; more get 503 at once
    this.admission = new Admission(l.maxInFlight(), claim * l.maxInFlight());
    // a chunked body past the limit must reach the handler, which refuses it (413)
    this.receivedFirst = (int) Math.min(receivedFirst, l.maxBodyBytes() + 1);
    this.receiving = new ReceiveBytes((long) RECEIVED_FIRST * RECEIVING_PER_SLOT * l.maxInFlight());
  }

  /** Reports being received now. */
  public int inFlight() {
    return admission.inFlight();
  }

  /** Reports refused with 503 so far. */
  public long refused() {
    return admission.refused();
  }

  /** Bytes the server holds of reports that wait for their first {@link #RECEIVED_FIRST}. */
  public long receivingBytes() {
    return receiving.claimed();
  }

  /** How long a body that took a slot may lag behind the minimum rate. */
  static final Duration SLOT_GRACE = Duration.ofSeconds(1);

  /**
   * The server receives this much of a report (all of it when shorter, as most are) on no thread
   * before the handler runs and takes a slot: a slot is for the work (the store, the broker), not
   * for waiting on a client, so a body that trickles never holds one (issue 43: 50 chunked
   * senders trickling a byte every 200 ms held the 16 slots, and 3 normal reports in 4 got 503).
   */
  static final int RECEIVED_FIRST = 256 << 10;

  /** Reports being received may hold {@link #RECEIVED_FIRST} times this times the slots, together. */
  static final int RECEIVING_PER_SLOT = 8;

  private final Duration slotGrace;
  private final int receivedFirst;
  private final ReceiveBytes receiving;

  @Override
  public int receivedFirst() {
    return receivedFirst;
  }

  @Override
  public ReadsWholeBody.ReceiveBudget receiveBudget() {
    return receiving;
  }

  /**
   * Refuses at once, from the headers alone (no slot taken, nothing read, the connection closed
   * after the answer): an announced length over the limit, a body that is not multipart, an
   * unsupported encoding, and any key that is wrong or conflicts with another.
   */
  @Override
  public boolean refusedEarly(Request request, Response response) throws IOException {
    try {
      checkHeaders(request);
      keys.scopeOf(carriedKeys(request));
      return false;
    } catch (SubmitException e) {
      log.info("report refused before its body ({} {}): {}", e.status(), e.code(), e.getMessage());
      response.header("Connection", "close");
      answer(response, e.status(), "Discarded=" + e.code() + "\n" + oneLine(e) + "\n");
      return true;
    }
  }

  @Override
  public void handle(Request request, Response response) throws IOException {
    // the body as the server hands it: a failure of its own (a client too slow for the minimum
    // rate, or gone) is not the report's fault nor the store's, and the server answers it
    WatchedInput wire = new WatchedInput(request.body());
    if (!"POST".equals(request.method())) {
      response.header("Allow", "POST");
      answer(response, 405, "Discarded=method_not_allowed\nonly POST is allowed\n");
      return;
    }
    if (!admission.tryEnter(claim)) {
      // not drained: that would hold this thread for a body that is refused anyway
      response.header("Retry-After", String.valueOf(service.limits().retryAfterSeconds()));
      response.header("Connection", "close");
      answer(
          response,
          503,
          "Discarded=busy\nmore than "
              + service.limits().maxInFlight()
              + " reports being received; retry later\n");
      return;
    }
    // a slot is scarce: the body that holds it keeps the minimum rate from now after a short
    // grace, so that one trickling a byte at a time gives it back in a second, not after the
    // request's whole grace (issue 43: 50 such senders held all 16 slots)
    request.holdBodyToRate(slotGrace);
    SubmitException refused;
    try {
      CollectorService.Accepted a;
      try {
        a = receive(request, wire);
      } catch (IOException e) {
        if (wire.failure() != null) {
          // too slow (the server answers 408) or gone: nothing of the report is kept
          log.info("report not received: {}", wire.failure().toString());
          throw wire.failure();
        }
        throw e;
      }
      answer(response, 200, "CrashID=" + CrashIds.PREFIX + a.crashId() + "\n");
      return;
    } catch (SubmitException e) {
      log.info("report refused ({} {}): {}", e.status(), e.code(), e.getMessage());
      refused = e;
    } catch (IOException e) {
      if (e == wire.failure()) {
        throw e;
      }
      // the store failed: nothing of the report is kept, the client retries
      log.warn("report not stored: {}", e.toString());
      refused =
          new SubmitException(
              503, "storage_unavailable", "the report could not be stored; retry later");
    } finally {
      // the slot is given back before a refused body is drained
      admission.release(claim);
    }
    if (refused.status() == 503) {
      response.header("Retry-After", String.valueOf(service.limits().retryAfterSeconds()));
    }
    if (refused.status() == 413) {
      // past a size limit: reading on would read what the limit refuses
      response.header("Connection", "close");
    } else {
      drain(wire);
    }
    answer(
        response, refused.status(), "Discarded=" + refused.code() + "\n" + oneLine(refused) + "\n");
  }

  /** What the headers alone refuse: the announced length, the type, the encoding. */
  private void checkHeaders(Request request) throws SubmitException {
    CollectorLimits l = service.limits();
    String length = request.header("Content-Length");
    if (length != null) {
      long n;
      try {
        n = Long.parseLong(length.strip());
      } catch (NumberFormatException e) {
        throw SubmitException.badRequest("bad_length", "Content-Length is not a number");
      }
      if (n > l.maxBodyBytes()) {
        throw SubmitException.tooLarge(
            "body_too_large",
            "the body of " + n + " bytes is more than the limit of " + l.maxBodyBytes() + " bytes");
      }
    }
    String type = request.header("Content-Type");
    if (type == null || type.isBlank()) {
      throw SubmitException.badRequest("no_content_type", "the request has no Content-Type");
    }
    String mime = type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
    if (!mime.equals("multipart/form-data") && !mime.equals("multipart/mixed")) {
      throw SubmitException.badRequest(
          "wrong_content_type",
          "the Content-Type must be multipart/form-data or "
              + "multipart/mixed, not "
              + (mime.length() > 60 ? mime.substring(0, 60) + "..." : mime));
    }
    if (MultipartReader.boundaryOf(type) == null) {
      throw SubmitException.badRequest(
          "no_boundary", "the Content-Type names no multipart boundary");
    }
    String encoding = request.header("Content-Encoding");
    if (encoding != null && !encoding.isBlank() && !encoding.strip().equalsIgnoreCase("identity")) {
      String e = encoding.strip().toLowerCase(Locale.ROOT);
      if (!e.equals("gzip") && !e.equals("x-gzip")) {
        throw new SubmitException(
            415,
            "unsupported_encoding",
            "Content-Encoding must be gzip or none, not "
                + (e.length() > 40 ? e.substring(0, 40) + "..." : e));
      }
    }
  }

  private CollectorService.Accepted receive(Request request, InputStream wire) throws IOException {
    CollectorLimits l = service.limits();
    checkHeaders(request);
    String boundary = MultipartReader.boundaryOf(request.header("Content-Type"));
    List<SubmitKeys.Carried> carried = carriedKeys(request);
    InputStream body = new SizeLimitedInput(wire, l.maxBodyBytes(), "body_too_large", "the body");
    String encoding = request.header("Content-Encoding");
    if (encoding != null && !encoding.isBlank() && !encoding.strip().equalsIgnoreCase("identity")) {
      body =
          new SizeLimitedInput(
              gunzip(body),
              l.maxDecompressedBytes(),
              "decompressed_too_large",
              "the decompressed body");
    }
    return service.submit(body, boundary, carried, keys);
  }

  /** A gunzip stream whose format errors are a 400 {@code bad_gzip}. */
  private static InputStream gunzip(InputStream body) throws IOException {
    GZIPInputStream gz;
    try {
      gz = new GZIPInputStream(body, GZIP_BUFFER);
    } catch (ZipException | EOFException e) {
      throw SubmitException.badRequest("bad_gzip", "the body is not gzip: " + e.getMessage());
    }
    return new FilterInputStream(gz) {
      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        try {
          return super.read(b, off, len);
        } catch (ZipException e) {
          throw SubmitException.badRequest(
              "bad_gzip", "the gzip body is corrupt: " + e.getMessage());
        } catch (EOFException e) {
          throw SubmitException.badRequest("bad_gzip", "the gzip body is truncated");
        }
      }
    };
  }

  /**
   * Every key the request carries outside its body: {@code Authorization: APIKey}, and each
   * {@code api_key} and {@code sentry_key} query parameter (empty values carry none).
   */
  static List<SubmitKeys.Carried> carriedKeys(Request request) {
    List<SubmitKeys.Carried> out = new ArrayList<>();
    String auth = request.header("Authorization");
    if (auth != null && auth.strip().regionMatches(true, 0, "APIKey ", 0, 7)) {
      String k = auth.strip().substring(7).strip();
      if (!k.isEmpty()) {
        out.add(new SubmitKeys.Carried("Authorization header", k));
      }
    }
    String q = request.rawQuery();
    if (q != null) {
      for (String p : q.split("&")) {
        int eq = p.indexOf('=');
        String name = eq < 0 ? p : p.substring(0, eq);
        if ((name.equals(SubmitKeys.FIELD) || name.equals(SubmitKeys.SENTRY_FIELD)) && eq > 0) {
          String k;
          try {
            k = URLDecoder.decode(p.substring(eq + 1), StandardCharsets.UTF_8).strip();
          } catch (IllegalArgumentException e) {
            k = p.substring(eq + 1); // not a valid key either: refused as one
          }
          if (!k.isEmpty()) {
            out.add(new SubmitKeys.Carried(name + " query parameter", k));
          }
        }
      }
    }
    return out;
  }

  private static String oneLine(SubmitException e) {
    return e.getMessage().replace('\n', ' ');
  }

  /** Reads and discards what is left of the body, within a cap and a time: closing unread resets the connection. */
  private static void drain(InputStream in) {
    byte[] buf = new byte[65536];
    long left = DRAIN_CAP;
    long until = System.nanoTime() + DRAIN_MILLIS * 1_000_000;
    try {
      int n;
      while (left > 0
          && System.nanoTime() < until
          && (n = in.read(buf, 0, (int) Math.min(buf.length, left))) > 0) {
        left -= n;
      }
    } catch (IOException e) {
      // the client went away, or sends too slowly: the answer is sent anyway
    }
  }

  private static void answer(Response response, int status, String text) throws IOException {
    response.send(status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
  }
}
