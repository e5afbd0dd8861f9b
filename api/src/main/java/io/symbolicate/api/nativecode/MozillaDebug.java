package io.symbolicate.api.nativecode;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.api.Json;
import io.symbolicate.api.RequestStats;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Mozilla's {@code debug} block: module (cache) lookups, downloads this request waited for
 * (count, bytes read from the source, time), modules and frame counts, total time in seconds.
 */
final class MozillaDebug {
  private MozillaDebug() {}

  static ObjectNode block(
      RequestStats stats, List<MozillaResults> results, List<MozillaRequest.Job> jobs) {
    ObjectNode d = Json.MAPPER.createObjectNode();
    ObjectNode cache = d.putObject("cache_lookups");
    cache.put("count", stats.cacheLookups());
    cache.put("hits", stats.cacheHits());
    ObjectNode dl = d.putObject("downloads");
    dl.put("count", stats.downloads());
    dl.put("size", stats.downloadBytes());
    dl.put("time", stats.downloadMillis() / 1000.0);
    Map<String, Integer> perModule = new TreeMap<>();
    results.forEach(r -> r.countFramesPerModule(perModule));
    ObjectNode modules = d.putObject("modules");
    modules.put("count", stats.modules());
    ObjectNode spm = modules.putObject("stacks_per_module");
    perModule.forEach(spm::put);
    long count = 0;
    long real = 0;
    for (MozillaRequest.Job j : jobs) {
      for (List<MozillaRequest.Frame> s : j.stacks()) {
        for (MozillaRequest.Frame f : s) {
          count++;
          if (f.hasOffset()) {
            real++;
          }
        }
      }
    }
    ObjectNode st = d.putObject("stacks");
    st.put("count", count);
    st.put("real", real);
    d.put("time", stats.durationMillis() / 1000.0);
    return d;
  }
}
