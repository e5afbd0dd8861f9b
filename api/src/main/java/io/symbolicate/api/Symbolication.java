package io.symbolicate.api;

import io.symbolicate.api.auth.ScopeAccess;
import io.symbolicate.connectors.source.SourceLinkFetcher;
import io.symbolicate.symbols.sources.ContextLines;
import java.util.Objects;

/**
 * What the symbolication handlers ({@link ShapeHandler}s and {@link FileHandler}s) share, each
 * constructed with it: the flow ({@link ApiSymbolicator}), the settings, one {@link Admission}
 * for all of them, and who may read which scope. Its figures are the {@code symbolicate_api_*}
 * meters.
 */
public final class Symbolication {
  private final ApiSymbolicator symbolicator;
  private final ApiSettings settings;
  private final Admission admission;

  /** Who may read which scope on the symbolication endpoints; read per request. */
  private volatile ScopeAccess access = ScopeAccess.DEFAULT;

  /** Source context lines of the endpoints that answer them ({@code POST /symbolicate}). */
  private volatile int sourceContextLines = ContextLines.DEFAULT_LINES;

  /** Fetches the files of Source Link URLs where allowed; null: never (the default). */
  private volatile SourceLinkFetcher sourceLinks;

  public Symbolication(ApiSymbolicator symbolicator, ApiSettings settings) {
    this.symbolicator = symbolicator;
    this.settings = settings;
    this.admission = new Admission(settings.maxInFlight(), settings.inFlightBytesBudget());
  }

  /**
   * The keys and anonymous scopes of the symbolication endpoints (docs/api/keys.md); by default
   * {@link ScopeAccess#DEFAULT}: no keys, anonymous requests read the global scope only.
   */
  public Symbolication withAccess(ScopeAccess a) {
    this.access = Objects.requireNonNull(a, "access");
    return this;
  }

  /**
   * Source context lines before and after a frame's line on the endpoints that answer them
   * ({@code symbolication.source.context.lines}, default {@link ContextLines#DEFAULT_LINES}; 0:
   * none). Set before the handlers are made.
   */
  public Symbolication withSourceContextLines(int lines) {
    if (lines < 0) {
      throw new IllegalArgumentException("source context lines must be >= 0");
    }
    this.sourceContextLines = lines;
    return this;
  }

  /**
   * Fetch the files Source Link URLs name, where {@code fetcher}'s policy allows them, for the
   * source context of .NET frames ({@code symbolication.source.link.*}; docs/dotnet.md). Set
   * before the handlers are made.
   */
  public Symbolication withSourceLinks(SourceLinkFetcher fetcher) {
    this.sourceLinks = fetcher;
    return this;
  }

  /** The Source Link fetcher, or null when Source Link URLs are never fetched. */
  public SourceLinkFetcher sourceLinks() {
    return sourceLinks;
  }

  public int sourceContextLines() {
    return sourceContextLines;
  }

  public ScopeAccess access() {
    return access;
  }

  public ApiSettings settings() {
    return settings;
  }

  ApiSymbolicator symbolicator() {
    return symbolicator;
  }

  Admission admission() {
    return admission;
  }

  /** Requests being symbolicated now. */
  public int inFlight() {
    return admission.inFlight();
  }

  /** Heap the requests in flight claimed. */
  public long claimedBytes() {
    return admission.claimedBytes();
  }

  /** Bytes of answers being written to their clients. */
  public long writingBytes() {
    return admission.writingBytes();
  }

  /** Requests refused with 503 so far. */
  public long refused() {
    return admission.refused();
  }
}
