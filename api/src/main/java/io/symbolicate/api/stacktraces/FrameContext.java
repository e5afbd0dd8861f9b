package io.symbolicate.api.stacktraces;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.connectors.source.SourceLinkFetcher;
import io.symbolicate.connectors.source.SourceLinkResult;
import io.symbolicate.symbolication.store.SourceContextLookup;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.symbols.sources.ContextLines;
import io.symbolicate.symbols.sources.SourceContext;
import io.symbolicate.symbols.sources.SourcePage;
import io.symbolicate.symbols.sources.SourcePages;
import io.symbolicate.symbols.table.PageSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The source context of one answer's frames ({@code pre_context}, {@code context_line}, {@code
 * post_context}, Symbolicator's fields): from the source pages a found module's table carries (a
 * source bundle found beside a native debug file, the sources a Portable PDB embeds;
 * docs/sources.md), within one {@link SourceContextLookup.Budget} for the whole answer, as the
 * stream bounds an event. Off when the request says {@code apply_source_context: false} or the
 * deployment {@code symbolication.source.context.lines=0}. Frames whose file only a Source Link
 * URL names get the context of the file fetched from it, where {@code symbolication.source.link.*}
 * allows (docs/dotnet.md, "Fetching Source Link files").
 */
final class FrameContext {
  private final int lines;
  private final SymbolLookup lookup;
  private final SourceContextLookup.Budget budget = new SourceContextLookup.Budget();

  /** Each module's source pages once per answer (absent: none); keyed by its resolution. */
  private final Map<SymbolLookup.Resolution, PageSource<SourcePage>> sources = new HashMap<>();

  /** Fetches Source Link files where allowed; null: never. */
  private final SourceLinkFetcher sourceLinks;

  /** A frame waiting for its Source Link file. */
  private record Pending(int module, String url, int line, ObjectNode frame) {}

  private final List<Pending> pending = new ArrayList<>();

  /**
   * @param lines lines before and after a frame's line; 0: none
   * @param sourceLinks fetches Source Link files where its policy allows; null: never
   */
  FrameContext(int lines, SymbolLookup lookup, SourceLinkFetcher sourceLinks) {
    this.lines = lines;
    this.lookup = lookup;
    this.sourceLinks = sourceLinks;
  }

  /**
   * Adds the context of {@code file} around {@code line} to {@code frame}, where known; whether it
   * did.
   */
  boolean apply(SymbolLookup.Resolution module, String file, int line, ObjectNode frame) {
    if (lines <= 0 || module == null || file == null || line <= 0) {
      return false;
    }
    PageSource<SourcePage> pages =
        sources.computeIfAbsent(module, r -> SourceContextLookup.sources(lookup, r));
    if (pages == null) {
      return false;
    }
    return put(frame, SourcePages.context(pages, file, line, lines));
  }

  /**
   * Remembers a frame whose file only a Source Link URL names, for {@link #fetchLinks}; nothing
   * when context or fetching is off.
   */
  void link(int module, String url, int line, ObjectNode frame) {
    if (lines > 0 && line > 0 && sourceLinks != null && sourceLinks.enabled()) {
      pending.add(new Pending(module, url, line, frame));
    }
  }

  /**
   * Fetches the files of the frames {@link #link}ed (each URL once, at most the fetcher's files
   * per event, waiting at most its timeout) and adds their context within the answer's budget;
   * what each fetch gave, by module index and URL.
   */
  Map<Integer, Map<String, SourceLinkResult>> fetchLinks() {
    if (pending.isEmpty()) {
      return Map.of();
    }
    Set<String> urls = new LinkedHashSet<>();
    for (Pending p : pending) {
      urls.add(p.url());
    }
    Map<String, SourceLinkResult> got;
    try {
      // the fetches time out by themselves; the slack lets a timed-out one say so
      got =
          sourceLinks.fetchAll(
              urls, System.currentTimeMillis() + sourceLinks.settings().timeout().toMillis() + 250);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Map.of();
    }
    Map<Integer, Map<String, SourceLinkResult>> byModule = new HashMap<>();
    for (Pending p : pending) {
      SourceLinkResult r = got.get(p.url());
      if (r == null) {
        continue;
      }
      byModule.computeIfAbsent(p.module(), m -> new LinkedHashMap<>()).put(p.url(), r);
      if (r instanceof SourceLinkResult.Found f) {
        put(p.frame(), ContextLines.around(f.lines(), p.line(), lines));
      }
    }
    pending.clear();
    return byModule;
  }

  /** Puts {@code c} on the frame within the budget; whether it did. */
  private boolean put(ObjectNode frame, SourceContext c) {
    if (c == null || !budget.take(c)) {
      return false;
    }
    // as Symbolicator writes them: an empty list of lines is left out
    putLines(frame, "pre_context", c.preContext());
    frame.put("context_line", c.contextLine());
    putLines(frame, "post_context", c.postContext());
    return true;
  }

  /** Whether a found module's table carries sources ({@code features.has_sources}). */
  static boolean hasSources(SymbolLookup.Resolution module) {
    return SourceContextLookup.hasSources(module);
  }

  private static void putLines(ObjectNode frame, String field, List<String> lines) {
    if (!lines.isEmpty()) {
      ArrayNode a = frame.putArray(field);
      lines.forEach(a::add);
    }
  }
}
