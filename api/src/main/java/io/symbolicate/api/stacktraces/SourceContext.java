package io.symbolicate.api.stacktraces;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The hook of source context ({@code pre_context}, {@code context_line}, {@code post_context}):
 * called for each symbolicated frame of a request whose {@code options.apply_source_context} is
 * true (the default), with the frame as answered and what identifies its sources (the module's
 * scope, debug id and debug file, the frame's file and line). The source-context service (source
 * bundles, sources embedded in a Portable PDB) implements it; until it is wired, {@link #NONE}
 * adds nothing.
 */
@FunctionalInterface
public interface SourceContext {
  /** Adds nothing. */
  SourceContext NONE = (scope, module, file, line, frame) -> {};

  /** A module as the request names it. */
  record Module(String type, String debugId, String debugFile, String codeId, String codeFile) {}

  /**
   * Adds the context lines of {@code file} around {@code line} to {@code frame}, where the
   * sources are at hand; does nothing otherwise.
   */
  void apply(String scope, Module module, String file, int line, ObjectNode frame);
}
