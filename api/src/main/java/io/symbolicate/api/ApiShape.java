package io.symbolicate.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.symbolication.store.ModuleReadiness;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.symbols.table.ModuleRef;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One HTTP endpoint's wire shapes for one platform (Mozilla's v5/v4 for native, Symbolicator's
 * for JS and JVM): request JSON to crash events, symbolicated events back to response JSON.
 * Its {@link ShapeHandler} does everything in between with the same platform steps, sources and
 * stores as the stream (find the modules an event needs, load them or wait up to the request's
 * deadline, symbolicate), so a shape holds no I/O and no state.
 *
 * @param <R> the parsed request
 */
public interface ApiShape<R> {

  /** Parses and validates a request body; throws {@link ApiException} (400/413) with a reason. */
  R parse(JsonNode body);

  /**
   * As {@link #parse(JsonNode)}, for a shape whose request also says something in its HTTP
   * headers ({@code header.apply(name)}: the header's first value, or null; names are
   * case-insensitive). The server calls this one; by default the headers are not read.
   */
  default R parse(JsonNode body, Function<String, String> header) {
    return parse(body);
  }

  /**
   * The crash events to symbolicate, one per job or stack-trace set, in the given scope. Their
   * platform decides the step that symbolicates them.
   */
  List<CrashEvent> events(R request, String scope);

  /**
   * Tables the shape reads itself with the lookup (not through a platform step), with their
   * caching rules: asked for and waited for with the events' modules. By default none.
   */
  default Map<ModuleRef, ModuleReadiness> ownModules(R request, String scope) {
    return Map.of();
  }

  /**
   * The events again once their modules are ready, before their frames are symbolicated: a
   * shape may complete them from the tables (e.g. the CPU of the modules found). By default as
   * they are.
   */
  default List<CrashEvent> whenReady(R request, List<CrashEvent> events, SymbolLookup lookup) {
    return events;
  }

  /** The response for the symbolicated events, given in the order of {@link #events}. */
  JsonNode render(R request, List<SymbolicatedEvent> results, RequestStats stats);

  /**
   * The response, with read access to the tables the request used (e.g. a found module's name
   * from its table header, as Mozilla reports it). The server calls this one; by default it is
   * {@link #render(Object, List, RequestStats)}.
   */
  default JsonNode render(
      R request, List<SymbolicatedEvent> results, RequestStats stats, SymbolLookup lookup) {
    return render(request, results, stats);
  }
}
