package io.symbolicate.connectors.source;

import io.symbolicate.symbols.sources.ContextLines;
import io.symbolicate.symbols.sources.SourceBundle;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Fetches the files Source Link URLs name, for source context, when {@link SourceLinkPolicy}
 * allows them (docs/dotnet.md, "Source Link"): a plain GET without redirects followed by the
 * client (each redirect's target is checked against the policy, at most {@link #MAX_REDIRECTS}),
 * the host's addresses checked before connecting, the body read up to a byte limit, the whole
 * fetch bounded by a timeout. The text follows the rules of source bundles: binary (a NUL byte)
 * or not UTF-8 is malformed, lines are cut as context lines show them.
 *
 * <p>Answers are cached by URL as the other fetches are: found files while they fit in the cache
 * (least recently used out first), missing ones for {@code missingRetryMs}, malformed ones for
 * {@code malformedRetryMs}, failures for {@code failedRetryMs}; concurrent fetches of one URL
 * share one request. Nothing here blocks a caller: {@link #fetch} answers a future, {@link
 * #fetchAll} waits at most until its deadline.
 */
public final class SourceLinkFetcher {
  static final int MAX_REDIRECTS = 5;

  /**
   * @param maxFileBytes a larger file is malformed (not read past the limit)
   * @param timeout a fetch (its redirects included) not done by then is a failure
   * @param maxFilesPerEvent distinct URLs one event or answer fetches
   * @param cacheBytes heap the cached files' lines may hold
   */
  public record Settings(
      SourceLinkPolicy policy,
      long maxFileBytes,
      Duration timeout,
      int maxFilesPerEvent,
      long missingRetryMs,
      long malformedRetryMs,
      long failedRetryMs,
      long cacheBytes) {
    public static final long DEFAULT_MAX_FILE_BYTES = 8L << 20;
    public static final long DEFAULT_TIMEOUT_MS = 5_000;
    public static final int DEFAULT_MAX_FILES_PER_EVENT = 16;
    public static final long DEFAULT_CACHE_BYTES = 64L << 20;

    public Settings {
      if (maxFileBytes <= 0 || timeout.isNegative() || timeout.isZero() || maxFilesPerEvent < 0) {
        throw new IllegalArgumentException(
            "source link limits: bytes and timeout must be positive, files 0 or more");
      }
    }
  }

  /** Host name to addresses (tests answer loopback for any name). */
  public interface Resolver {
    InetAddress[] resolve(String host) throws UnknownHostException;
  }

  private record Cached(SourceLinkResult result, long expiresAt, long weight) {}

  private final Settings settings;
  private final Resolver resolver;
  private final LongSupplier clock;
  private final HttpClient client;
  private final ExecutorService dns;
  private final Map<String, CompletableFuture<SourceLinkResult>> inFlight =
      new ConcurrentHashMap<>();
  private final LinkedHashMap<String, Cached> cache = new LinkedHashMap<>(64, 0.75f, true);
  private long cachedBytes;

  /** The statuses {@link #fetches(String)} counts: Symbolicator's candidate statuses. */
  public static final List<String> STATUSES =
      List.of("ok", "notfound", "noperm", "malformed", "error");

  private final Map<String, AtomicLong> outcomes = outcomeCounters();
  private final AtomicLong cacheHits = new AtomicLong();

  private static Map<String, AtomicLong> outcomeCounters() {
    Map<String, AtomicLong> m = new HashMap<>();
    STATUSES.forEach(st -> m.put(st, new AtomicLong()));
    return Map.copyOf(m);
  }

  /**
   * Fetches that ended with this status (one of {@link #STATUSES}) since start: answers from the
   * network, and URLs refused without a request; answers from the cache are not counted here.
   */
  public long fetches(String status) {
    AtomicLong n = outcomes.get(status);
    return n == null ? 0 : n.get();
  }

  /** URLs answered from the cache (found, or a missing/malformed/failed answer not yet due). */
  public long cacheHits() {
    return cacheHits.get();
  }

  public SourceLinkFetcher(Settings settings) {
    this(settings, InetAddress::getAllByName, System::currentTimeMillis);
  }

  SourceLinkFetcher(Settings settings, Resolver resolver, LongSupplier clock) {
    this.settings = settings;
    this.resolver = resolver;
    this.clock = clock;
    this.client =
        HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NEVER)
            .connectTimeout(settings.timeout())
            .build();
    // name lookups block: on two daemon threads of their own, never the caller's
    this.dns =
        Executors.newFixedThreadPool(
            2,
            r -> {
              Thread t = new Thread(r, "source-link-dns");
              t.setDaemon(true);
              return t;
            });
  }

  public Settings settings() {
    return settings;
  }

  /** Whether any URL may be fetched. */
  public boolean enabled() {
    return settings.policy().enabled() && settings.maxFilesPerEvent() > 0;
  }

  /**
   * The files of {@code urls} (each once), waiting at most until {@code deadlineMillis}; a URL
   * not answered by then is a failure ("not fetched in time"), its fetch going on for the next
   * caller. Past {@link Settings#maxFilesPerEvent} URLs, the rest are refused.
   */
  public Map<String, SourceLinkResult> fetchAll(Collection<String> urls, long deadlineMillis)
      throws InterruptedException {
    Map<String, CompletableFuture<SourceLinkResult>> futures = new LinkedHashMap<>();
    Map<String, SourceLinkResult> out = new LinkedHashMap<>();
    for (String u : urls) {
      if (futures.containsKey(u) || out.containsKey(u)) {
        continue;
      }
      if (futures.size() >= settings.maxFilesPerEvent()) {
        out.put(
            u,
            new SourceLinkResult.Refused(
                "over the " + settings.maxFilesPerEvent() + " files an event fetches"));
      } else {
        futures.put(u, fetch(u));
      }
    }
    for (Map.Entry<String, CompletableFuture<SourceLinkResult>> e : futures.entrySet()) {
      long left = deadlineMillis - clock.getAsLong();
      SourceLinkResult r;
      try {
        r = e.getValue().get(Math.max(0, left), TimeUnit.MILLISECONDS);
      } catch (TimeoutException | ExecutionException | CancellationException x) {
        r = new SourceLinkResult.Failed("not fetched in time");
      }
      out.put(e.getKey(), r);
    }
    return out;
  }

  /** The file of one Source Link URL, from the cache or fetched. */
  public CompletableFuture<SourceLinkResult> fetch(String url) {
    URI target = settings.policy().target(url);
    if (target == null) {
      outcomes.get("noperm").incrementAndGet();
      return CompletableFuture.completedFuture(
          new SourceLinkResult.Refused("no allowed prefix matches the URL"));
    }
    SourceLinkResult hit = cached(url);
    if (hit != null) {
      cacheHits.incrementAndGet();
      return CompletableFuture.completedFuture(hit);
    }
    CompletableFuture<SourceLinkResult> mine = new CompletableFuture<>();
    CompletableFuture<SourceLinkResult> running = inFlight.putIfAbsent(url, mine);
    if (running != null) {
      return running;
    }
    // the exchanges of this fetch, cancelled when it ends (a body still dripping at the timeout)
    List<CompletableFuture<?>> sends = new CopyOnWriteArrayList<>();
    CompletableFuture<SourceLinkResult> work = get(target, 0, sends);
    work.completeOnTimeout(
            new SourceLinkResult.Failed("timed out after " + settings.timeout().toMillis() + " ms"),
            settings.timeout().toMillis(),
            TimeUnit.MILLISECONDS)
        .whenComplete(
            (r, t) -> {
              sends.forEach(s -> s.cancel(true));
              SourceLinkResult res = r != null ? r : failure(t);
              outcomes.get(res.status()).incrementAndGet();
              store(url, res);
              inFlight.remove(url, mine);
              mine.complete(res);
            });
    return mine;
  }

  private CompletableFuture<SourceLinkResult> get(
      URI target, int hops, List<CompletableFuture<?>> sends) {
    return CompletableFuture.supplyAsync(() -> refusedHost(target.getHost()), dns)
        .thenCompose(
            refused -> {
              if (refused != null) {
                return CompletableFuture.completedFuture(
                    (SourceLinkResult) new SourceLinkResult.Refused(refused));
              }
              HttpRequest req =
                  HttpRequest.newBuilder(target)
                      .timeout(settings.timeout())
                      .GET()
                      .header("User-Agent", "symbolicate/0.1")
                      .build();
              CompletableFuture<HttpResponse<byte[]>> send = client.sendAsync(req, this::body);
              sends.add(send);
              return send.thenCompose(resp -> answer(target, hops, resp, sends));
            })
        .exceptionally(SourceLinkFetcher::failure);
  }

  /** The body handler: the body read (capped) only for a 200 within the declared limit. */
  private HttpResponse.BodySubscriber<byte[]> body(HttpResponse.ResponseInfo info) {
    long max = settings.maxFileBytes();
    if (info.statusCode() != 200) {
      return new CappedBody(max, "status " + info.statusCode());
    }
    long declared = info.headers().firstValueAsLong("Content-Length").orElse(-1);
    if (declared > max) {
      return new CappedBody(max, "declared " + declared + " bytes");
    }
    return new CappedBody(max, null);
  }

  private CompletableFuture<SourceLinkResult> answer(
      URI target, int hops, HttpResponse<byte[]> resp, List<CompletableFuture<?>> sends) {
    int status = resp.statusCode();
    if (status == 200) {
      long declared = resp.headers().firstValueAsLong("Content-Length").orElse(-1);
      if (declared > settings.maxFileBytes()) {
        return done(
            new SourceLinkResult.Malformed(
                "over " + settings.maxFileBytes() + " bytes (" + declared + " declared)"));
      }
      String text = SourceBundle.text(resp.body());
      return done(
          text == null
              ? new SourceLinkResult.Malformed("binary or not UTF-8")
              : new SourceLinkResult.Found(ContextLines.split(text)));
    }
    if (status == 301 || status == 302 || status == 303 || status == 307 || status == 308) {
      String loc = resp.headers().firstValue("Location").orElse(null);
      if (loc == null) {
        return done(new SourceLinkResult.Failed("HTTP " + status + " without a Location"));
      }
      if (hops >= MAX_REDIRECTS) {
        return done(new SourceLinkResult.Failed("more than " + MAX_REDIRECTS + " redirects"));
      }
      URI next;
      try {
        next = target.resolve(loc);
      } catch (IllegalArgumentException e) {
        return done(new SourceLinkResult.Failed("a redirect to a bad URL"));
      }
      if (!settings.policy().permitsRedirect(next)) {
        return done(
            new SourceLinkResult.Refused("a redirect out of the allowed prefixes: " + next));
      }
      return get(next, hops + 1, sends);
    }
    if (status == 404 || status == 410 || status == 403) {
      return done(new SourceLinkResult.Missing("HTTP " + status));
    }
    return done(new SourceLinkResult.Failed("HTTP " + status));
  }

  /** Why none of the host's addresses may be connected to, or null when all may. */
  private String refusedHost(String host) {
    InetAddress[] all;
    try {
      all = resolver.resolve(host);
    } catch (UnknownHostException e) {
      return "unknown host " + host;
    }
    for (InetAddress a : all) {
      String why = settings.policy().refusedAddress(a);
      if (why != null) {
        return host + " resolves to " + why + " (" + a.getHostAddress() + ")";
      }
    }
    return null;
  }

  private static SourceLinkResult failure(Throwable t) {
    Throwable c = t;
    while ((c instanceof CompletionException || c instanceof ExecutionException)
        && c.getCause() != null) {
      c = c.getCause();
    }
    if (c instanceof CappedBody.TooLarge) {
      return new SourceLinkResult.Malformed(c.getMessage());
    }
    if (c instanceof HttpTimeoutException) {
      return new SourceLinkResult.Failed("timed out: " + c.getMessage());
    }
    return new SourceLinkResult.Failed(String.valueOf(c));
  }

  private static CompletableFuture<SourceLinkResult> done(SourceLinkResult r) {
    return CompletableFuture.completedFuture(r);
  }

  private synchronized SourceLinkResult cached(String url) {
    Cached c = cache.get(url);
    if (c == null) {
      return null;
    }
    if (clock.getAsLong() >= c.expiresAt()) {
      cache.remove(url);
      cachedBytes -= c.weight();
      return null;
    }
    return c.result();
  }

  private synchronized void store(String url, SourceLinkResult r) {
    long now = clock.getAsLong();
    long weight = r instanceof SourceLinkResult.Found f ? f.weight() : 256;
    long ttl;
    if (r instanceof SourceLinkResult.Found) {
      ttl = Long.MAX_VALUE - now;
    } else if (r instanceof SourceLinkResult.Missing) {
      ttl = settings.missingRetryMs();
    } else if (r instanceof SourceLinkResult.Malformed) {
      ttl = settings.malformedRetryMs();
    } else {
      ttl = settings.failedRetryMs();
    }
    if (weight > settings.cacheBytes()) {
      return;
    }
    Cached old = cache.put(url, new Cached(r, now + ttl, weight));
    if (old != null) {
      cachedBytes -= old.weight();
    }
    cachedBytes += weight;
    var it = cache.entrySet().iterator();
    while (cachedBytes > settings.cacheBytes() && it.hasNext()) {
      cachedBytes -= it.next().getValue().weight();
      it.remove();
    }
  }
}
