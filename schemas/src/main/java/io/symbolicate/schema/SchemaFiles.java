package io.symbolicate.schema;

import java.util.List;

/** The wire schemas, in the order they must be parsed (later files reference earlier types). */
public final class SchemaFiles {
  public static final List<String> PARSE_ORDER =
      List.of(
          "common.avsc",
          "CrashEvent.avsc",
          "SymbolicatedEvent.avsc",
          "DeadLetter.avsc",
          "ModuleState.avsc",
          "SymbolRequest.avsc",
          "MissingSymbols.avsc");

  /** Top-level record types checked for compatibility across versions. */
  public static final List<String> RECORDS =
      List.of(
          "io.symbolicate.schema.CrashEvent",
          "io.symbolicate.schema.SymbolicatedEvent",
          "io.symbolicate.schema.DeadLetter",
          "io.symbolicate.schema.ModuleState",
          "io.symbolicate.schema.SymbolRequest",
          "io.symbolicate.schema.MissingSymbols");

  private SchemaFiles() {}
}
