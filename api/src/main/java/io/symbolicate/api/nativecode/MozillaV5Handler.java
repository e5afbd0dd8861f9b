package io.symbolicate.api.nativecode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.api.ApiException;
import io.symbolicate.api.Json;
import io.symbolicate.api.RequestStats;
import io.symbolicate.api.ShapeHandler;
import io.symbolicate.api.Symbolication;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.symbolication.store.SymbolLookup;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * {@code POST /symbolicate/v5}: Mozilla's {@code jobs} (or one job at the top level) of
 * {@code memoryMap} and {@code stacks}; at most 10 jobs. A truthy {@code debug} key or a
 * {@code Debug} header adds the {@code debug} block.
 */
public final class MozillaV5Handler extends ShapeHandler<MozillaRequest> {
  private final int maxItems;

  /** Frames, stacks and modules a request may hold, each: {@code http.max.frames}. */
  public MozillaV5Handler(Symbolication shared) {
    super(shared);
    this.maxItems = shared.settings().maxFrames();
  }

  @Override
  public MozillaRequest parse(JsonNode body) {
    return parse(body, name -> null);
  }

  /** As Mozilla's service: a {@code Debug} header with any non-empty value asks for the debug block too. */
  @Override
  public MozillaRequest parse(JsonNode body, Function<String, String> header) {
    if (!body.isObject()) {
      throw ApiException.badRequest("request body must be a JSON object");
    }
    JsonNode jobs = body.has("jobs") ? body.get("jobs") : null;
    List<MozillaRequest.Job> out = new ArrayList<>();
    if (jobs == null) {
      MozillaJobs.checkSize(List.of(body), maxItems);
      out.add(MozillaJobs.job(body, 0, false));
    } else {
      if (!jobs.isArray()) {
        throw ApiException.badRequest("jobs must be a list");
      }
      if (jobs.size() > MozillaJobs.MAX_JOBS) {
        throw ApiException.badRequest(
            "please limit number of jobs in a single request to <= " + MozillaJobs.MAX_JOBS);
      }
      MozillaJobs.checkSize(jobs, maxItems);
      for (int i = 0; i < jobs.size(); i++) {
        out.add(MozillaJobs.job(jobs.get(i), i, false));
      }
    }
    String debugHeader = header.apply("Debug");
    boolean debug =
        MozillaJobs.truthy(body.get("debug")) || debugHeader != null && !debugHeader.isEmpty();
    return new MozillaRequest(out, debug);
  }

  @Override
  public List<CrashEvent> events(MozillaRequest request, String scope) {
    List<CrashEvent> events = new ArrayList<>(request.jobs().size());
    for (int i = 0; i < request.jobs().size(); i++) {
      events.add(MozillaJobs.event(request.jobs().get(i), scope, i));
    }
    return events;
  }

  @Override
  public JsonNode render(
      MozillaRequest request, List<SymbolicatedEvent> results, RequestStats stats) {
    return render(request, results, stats, SymbolLookup.NONE);
  }

  @Override
  public JsonNode render(
      MozillaRequest request,
      List<SymbolicatedEvent> results,
      RequestStats stats,
      SymbolLookup lookup) {
    ObjectNode root = Json.MAPPER.createObjectNode();
    ArrayNode arr = root.putArray("results");
    List<MozillaResults> all = new ArrayList<>();
    for (int j = 0; j < request.jobs().size(); j++) {
      SymbolicatedEvent e = results.get(j);
      MozillaResults r =
          new MozillaResults(request.jobs().get(j), e, e.getEvent().getScope(), lookup);
      all.add(r);
      ObjectNode res = arr.addObject();
      ArrayNode stacks = res.putArray("stacks");
      r.stacks().forEach(s -> stacks.addArray().addAll(s));
      res.set("found_modules", r.foundModules());
    }
    if (request.debug()) {
      root.set("debug", MozillaDebug.block(stats, all, request.jobs()));
    }
    return root;
  }
}
