package io.symbolicate.connectors.source;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Sources in priority order. The first source that has the object wins; the result is
 * "missing" only when every source said so, and "failed" when none had it and at least one
 * could not answer (so a transient failure is never cached as missing).
 */
public final class SourceChain implements SymbolSource {
  private final List<SymbolSource> sources;

  public SourceChain(List<SymbolSource> sources) {
    if (sources.isEmpty()) {
      throw new IllegalArgumentException("no symbol sources configured");
    }
    this.sources = List.copyOf(sources);
  }

  @Override
  public String name() {
    return sources.stream().map(SymbolSource::name).toList().toString();
  }

  /** Tries each candidate key in each source, in source order. */
  public FetchResult fetchFirst(List<String> keys) {
    return fetchFirst(s -> keys);
  }

  /**
   * Tries each source's candidate keys ({@code keysOf}: a source's settings may choose them), in
   * source order; as {@link #fetchFirst(List)}, and missing when no source has a candidate.
   */
  public FetchResult fetchFirst(Function<SymbolSource, List<String>> keysOf) {
    return fetchFirst(keysOf, (s, key, found) -> found);
  }

  /** What an object found becomes, in the source that has it (a redirect followed in it). */
  @FunctionalInterface
  public interface Resolver {
    FetchResult resolve(SymbolSource source, String key, FetchResult.Found found);
  }

  /**
   * As {@link #fetchFirst(Function)}, each object found passed through {@code resolver} first:
   * its answer is the result when found or failed, and a miss goes on to the next key.
   */
  public FetchResult fetchFirst(Function<SymbolSource, List<String>> keysOf, Resolver resolver) {
    List<String> tried = new ArrayList<>();
    FetchResult.Failed failure = null;
    for (SymbolSource s : sources) {
      for (String key : keysOf.apply(s)) {
        FetchResult r = s.fetch(key);
        if (r instanceof FetchResult.Found found) {
          r = resolver.resolve(s, key, found);
        }
        if (r instanceof FetchResult.Found) {
          return r;
        }
        if (r instanceof FetchResult.Failed f && failure == null) {
          failure = f;
        } else if (r instanceof FetchResult.NotFound nf) {
          tried.add(nf.tried());
        }
      }
    }
    return failure != null ? failure : new FetchResult.NotFound(String.join(", ", tried));
  }

  @Override
  public FetchResult fetch(String key) {
    return fetchFirst(List.of(key));
  }

  @Override
  public void close() {
    for (SymbolSource s : sources) {
      s.close();
    }
  }
}
