package io.symbolicate.api.js;

import java.util.List;

/**
 * A parsed {@code POST /symbolicate-js} request in Symbolicator's shape: stack traces of
 * Sentry JavaScript frames, the sourcemap modules (minified file URL and debug id) and the
 * options we honour. Fields we accept but do not act on ({@code source}, {@code platform},
 * scraping headers and allowed origins) are not kept.
 *
 * @param scrapingEnabled {@code scraping.enabled} (default true); we never fetch from the web,
 *     it only chooses the error a frame without a sourcemap gets
 * @param applySourceContext {@code options.apply_source_context} (or the top-level
 *     {@code apply_source_context}), default true
 */
public record JsRequest(
    List<Stacktrace> stacktraces,
    List<Module> modules,
    String release,
    String dist,
    boolean scrapingEnabled,
    boolean applySourceContext) {

  public record Stacktrace(List<Frame> frames) {}

  /** A sourcemap module; {@code debugId} is already normalised (lowercase, hyphenated). */
  public record Module(String codeFile, String debugId) {}

  /**
   * A frame as sent, minus any {@code async } prefix on {@code abs_path} (Symbolicator strips it
   * before anything else, and returns the stripped value in {@code raw_stacktraces} too).
   */
  public record Frame(
      String function,
      String filename,
      String module,
      String absPath,
      int lineno,
      Integer colno,
      List<String> preContext,
      String contextLine,
      List<String> postContext,
      Boolean inApp,
      String platform) {}
}
