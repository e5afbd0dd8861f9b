package io.symbolicate.symbols.js;

import java.util.BitSet;
import java.util.List;

/**
 * A parsed, validated sourcemap (index maps already flattened). {@code sources} are resolved
 * (sourceRoot joined, and resolved against the map URL when one was given); {@code rawSources}
 * keep the map's own strings. Entries may be null (a null source stays its own entry).
 */
public record SourceMap(
    String file,
    String debugId,
    List<String> sources,
    List<String> rawSources,
    List<String> sourcesContent,
    List<String> names,
    BitSet ignored,
    Mappings mappings,
    List<FunctionMap> functionMaps) {

  /** The Metro/Hermes function map of a source, or null. */
  public FunctionMap functionMap(int source) {
    return functionMaps == null || source >= functionMaps.size() ? null : functionMaps.get(source);
  }

  public int segmentCount() {
    return mappings.size();
  }
}
