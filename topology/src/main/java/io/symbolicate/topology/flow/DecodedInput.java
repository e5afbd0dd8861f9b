package io.symbolicate.topology.flow;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.SymbolicatedEvent;

/**
 * What flows between the topology's stateless steps: a record's raw bytes plus either what it
 * became or the dead letter it turned into. Never serialized (no repartitioning in between).
 * The platform steps' processor reads it too, so that a dead letter it makes on the record's own
 * turn carries the raw input.
 */
public record DecodedInput(
    byte[] raw, CrashEvent event, SymbolicatedEvent result, DeadLetter deadLetter) {

  public static DecodedInput event(byte[] raw, CrashEvent e) {
    return new DecodedInput(raw, e, null, null);
  }

  public DecodedInput symbolicated(SymbolicatedEvent r) {
    return new DecodedInput(raw, event, r, null);
  }

  public DecodedInput dead(DeadLetter d) {
    return new DecodedInput(raw, event, null, d);
  }

  public boolean isDead() {
    return deadLetter != null;
  }
}
