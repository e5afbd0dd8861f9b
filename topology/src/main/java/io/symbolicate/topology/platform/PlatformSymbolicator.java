package io.symbolicate.topology.platform;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.topology.store.SymbolLookup;
import java.util.List;

/**
 * One symbolication step per platform: the topology routes each valid event to the step of its
 * platform. A step never blocks on I/O: it names the modules it needs, the topology parks the
 * event until the store knows them (or a deadline passes), then calls {@link #symbolicate}.
 * It never throws for bad frames (those get statuses); an exception sends the event to the DLQ.
 */
public interface PlatformSymbolicator {

  Platform platform();

  /**
   * References, in the event's scope, of the modules whose tables the event needs. Modules with
   * invalid identifiers are left out (the step reports them as {@code malformed_request}).
   */
  default List<ModuleRef> modulesNeeded(CrashEvent event) {
    return List.of();
  }

  /** Format version of the tables this platform's engine writes (0: no tables). */
  default int tableFormatVersion() {
    return 0;
  }

  /** Oldest table format the engine still reads; older tables count as absent. */
  default int minReadableTableVersion() {
    return tableFormatVersion();
  }

  SymbolicatedEvent symbolicate(CrashEvent event, SymbolLookup lookup, long nowMillis);

  /** Symbolicates without a store (every module unknown). */
  default SymbolicatedEvent symbolicate(CrashEvent event, long nowMillis) {
    return symbolicate(event, SymbolLookup.NONE, nowMillis);
  }
}
