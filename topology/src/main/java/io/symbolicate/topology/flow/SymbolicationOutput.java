package io.symbolicate.topology.flow;

import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.MissingSymbols;
import io.symbolicate.schema.SymbolRequest;
import io.symbolicate.schema.SymbolicatedEvent;

/**
 * What the symbolication processors emit; exactly one field is set. Never serialized: the
 * topology splits the processors' merged stream by the field that is set and writes each kind
 * to its own topic.
 *
 * @param result a symbolicated event: signed, then written to {@code crash-events.symbolicated}
 * @param deadLetter an event that failed: written to {@code crash-events.dlq}
 * @param request a module the event needs, asked of the loader on {@code symbols.requests}
 * @param missing a module found missing: counted by module into {@code symbols.missing}
 */
public record SymbolicationOutput(
    SymbolicatedEvent result,
    DeadLetter deadLetter,
    SymbolRequest request,
    MissingSymbols missing) {

  public static SymbolicationOutput result(SymbolicatedEvent e) {
    return new SymbolicationOutput(e, null, null, null);
  }

  public static SymbolicationOutput dead(DeadLetter d) {
    return new SymbolicationOutput(null, d, null, null);
  }

  public static SymbolicationOutput request(SymbolRequest r) {
    return new SymbolicationOutput(null, null, r, null);
  }

  public static SymbolicationOutput missing(MissingSymbols m) {
    return new SymbolicationOutput(null, null, null, m);
  }
}
