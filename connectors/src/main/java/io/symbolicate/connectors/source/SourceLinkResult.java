package io.symbolicate.connectors.source;

/**
 * What fetching one Source Link URL gave: its lines, or why not. {@link Refused} made no request
 * (no allowed prefix, a reserved address, a redirect out of the allowed prefixes); the others
 * follow the caching rules of the other fetches (missing, malformed and failed answers are asked
 * again after their retry times).
 */
public sealed interface SourceLinkResult {
  /** Why not, or null when found. */
  String reason();

  /** Symbolicator's download status of a candidate: ok, notfound, noperm, malformed, error. */
  String status();

  /** The file's lines, already cut as context lines show them ({@code ContextLines.split}). */
  record Found(String[] lines) implements SourceLinkResult {
    @Override
    public String reason() {
      return null;
    }

    @Override
    public String status() {
      return "ok";
    }

    /** Roughly the heap the lines hold (what the cache counts). */
    long weight() {
      long n = 64;
      for (String l : lines) {
        n += 40 + 2L * l.length();
      }
      return n;
    }
  }

  /** Not fetched: the policy does not allow it. */
  record Refused(String reason) implements SourceLinkResult {
    @Override
    public String status() {
      return "noperm";
    }
  }

  /** The server says it has no such file (404, 410, 403). */
  record Missing(String reason) implements SourceLinkResult {
    @Override
    public String status() {
      return "notfound";
    }
  }

  /** Binary, not UTF-8, or over the per-file byte limit. */
  record Malformed(String reason) implements SourceLinkResult {
    @Override
    public String status() {
      return "malformed";
    }
  }

  /** A transient failure: timeout, 5xx, 429, a network error. */
  record Failed(String reason) implements SourceLinkResult {
    @Override
    public String status() {
      return "error";
    }
  }
}
