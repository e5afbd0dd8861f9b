package io.symbolicate.schema.serde;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.MissingSymbols;
import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.SymbolRequest;
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

  public static AvroSerde<ModuleState> moduleState() {
    return new AvroSerde<>(ModuleState.class);
  }

  public static AvroSerde<SymbolRequest> symbolRequest() {
    return new AvroSerde<>(SymbolRequest.class);
  }

  public static AvroSerde<MissingSymbols> missingSymbols() {
    return new AvroSerde<>(MissingSymbols.class);
  }
}
