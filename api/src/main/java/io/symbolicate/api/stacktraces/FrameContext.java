package io.symbolicate.api.stacktraces;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.symbolication.store.SourceContextLookup;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.symbols.sources.SourceContext;
import io.symbolicate.symbols.sources.SourcePage;
import io.symbolicate.symbols.sources.SourcePages;
import io.symbolicate.symbols.table.PageSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The source context of one answer's frames ({@code pre_context}, {@code context_line}, {@code
 * post_context}, Symbolicator's fields): from the source pages a found module's table carries (a
 * source bundle found beside a native debug file, the sources a Portable PDB embeds;
 * docs/sources.md), within one {@link SourceContextLookup.Budget} for the whole answer, as the
 * stream bounds an event. Off when the request says {@code apply_source_context: false} or the
 * deployment {@code symbolication.source.context.lines=0}.
 */
final class FrameContext {
  private final int lines;
  private final SymbolLookup lookup;
  private final SourceContextLookup.Budget budget = new SourceContextLookup.Budget();

  /** Each module's source pages once per answer (absent: none); keyed by its resolution. */
  private final Map<SymbolLookup.Resolution, PageSource<SourcePage>> sources = new HashMap<>();

  /** @param lines lines before and after a frame's line; 0: none */
  FrameContext(int lines, SymbolLookup lookup) {
    this.lines = lines;
    this.lookup = lookup;
  }

  /** Adds the context of {@code file} around {@code line} to {@code frame}, where known. */
  void apply(SymbolLookup.Resolution module, String file, int line, ObjectNode frame) {
    if (lines <= 0 || module == null || file == null || line <= 0) {
      return;
    }
    PageSource<SourcePage> pages =
        sources.computeIfAbsent(module, r -> SourceContextLookup.sources(lookup, r));
    if (pages == null) {
      return;
    }
    SourceContext c = SourcePages.context(pages, file, line, lines);
    if (c == null || !budget.take(c)) {
      return;
    }
    // as Symbolicator writes them: an empty list of lines is left out
    putLines(frame, "pre_context", c.preContext());
    frame.put("context_line", c.contextLine());
    putLines(frame, "post_context", c.postContext());
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
