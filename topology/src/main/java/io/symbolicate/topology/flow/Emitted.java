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
public record Emitted(
    SymbolicatedEvent result,
    DeadLetter deadLetter,
    SymbolRequest request,
    MissingSymbols missing) {

  public static Emitted result(SymbolicatedEvent e) {
    return new Emitted(e, null, null, null);
  }

  public static Emitted dead(DeadLetter d) {
    return new Emitted(null, d, null, null);
  }

  public static Emitted request(SymbolRequest r) {
    return new Emitted(null, null, r, null);
  }

  public static Emitted missing(MissingSymbols m) {
    return new Emitted(null, null, null, m);
  }
}
