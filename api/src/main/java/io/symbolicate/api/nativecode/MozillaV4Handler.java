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
import java.util.List;

/**
 * {@code POST /symbolicate/v4} and the legacy {@code POST /}: one job at the top level; the
 * answer is {@code symbolicatedStacks} of "function (in module)" strings ("0x1a0a (in module)"
 * when the function is unknown; an offset that is not an integer echoed: a string as sent, a
 * number as its exact decimal value, e.g. "1.00000", but "1E+400" for 1e400) and
 * {@code knownModules}; a truthy {@code debug} adds the {@code debug} block.
 */
public final class MozillaV4Handler extends ShapeHandler<MozillaRequest> {
  private final int maxItems;

  /** Frames, stacks and modules a request may hold, each: {@code http.max.frames}. */
  public MozillaV4Handler(Symbolication shared) {
    super(shared);
    this.maxItems = shared.settings().maxFrames();
  }

  @Override
  public MozillaRequest parse(JsonNode body) {
    if (!body.isObject()) {
      throw ApiException.badRequest("request body must be a JSON object");
    }
    MozillaJobs.checkSize(List.of(body), maxItems);
    return new MozillaRequest(
        List.of(MozillaJobs.job(body, 0, true)), MozillaJobs.truthy(body.get("debug")));
  }

  @Override
  public List<CrashEvent> events(MozillaRequest request, String scope) {
    return List.of(MozillaJobs.event(request.jobs().get(0), scope, 0));
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
    MozillaRequest.Job job = request.jobs().get(0);
    SymbolicatedEvent e = results.get(0);
    MozillaResults r = new MozillaResults(job, e, e.getEvent().getScope(), lookup);
    ObjectNode root = Json.MAPPER.createObjectNode();
    ArrayNode stacks = root.putArray("symbolicatedStacks");
    for (int s = 0; s < r.stacks().size(); s++) {
      ArrayNode out = stacks.addArray();
      List<MozillaRequest.Frame> in = job.stacks().get(s);
      for (int i = 0; i < in.size(); i++) {
        ObjectNode f = r.stacks().get(s).get(i);
        if (!in.get(i).hasOffset()) {
          out.add(in.get(i).text()); // not an integer: echoed as sent
        } else if (f.has("function")) {
          out.add(f.get("function").asText() + " (in " + f.get("module").asText() + ")");
        } else {
          out.add(f.get("module_offset").asText() + " (in " + f.get("module").asText() + ")");
        }
      }
    }
    root.set("knownModules", r.knownModules());
    if (request.debug()) {
      root.set("debug", MozillaDebug.block(stats, List.of(r), request.jobs()));
    }
    return root;
  }
}
