package io.symbolicate.topology.serde;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.SymbolicatedEvent;

/** One serde per wire type. */
public final class WireSerdes {
  private WireSerdes() {}

  public static AvroSerde<CrashEvent> crashEvent() {
    return new AvroSerde<>(CrashEvent.class);
  }

  public static AvroSerde<SymbolicatedEvent> symbolicatedEvent() {
    return new AvroSerde<>(SymbolicatedEvent.class);
  }

  public static AvroSerde<DeadLetter> deadLetter() {
    return new AvroSerde<>(DeadLetter.class);
  }
}
