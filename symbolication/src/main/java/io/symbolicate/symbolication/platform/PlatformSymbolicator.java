package io.symbolicate.symbolication.platform;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.symbolication.store.ModuleReadiness;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.symbols.table.ModuleRef;
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

  /**
   * As {@link #modulesNeeded(CrashEvent)}, with the store at hand: a step whose modules depend on
   * the answers already known (a dump's walk consults the modules its stacks reach) overrides
   * this. Called on arrival and at every pass over the parked events.
   *
   * @throws UnusableEventException when the event can never be symbolicated (a dump that does not
   *     read): the event is dead-lettered with the exception's kind and reason
   */
  default List<ModuleRef> modulesNeeded(CrashEvent event, SymbolLookup lookup) {
    return modulesNeeded(event);
  }

  /**
   * Whether the event still waits for input the step fetches off the stream thread (a dump
   * stored by reference); the step may start the fetch here. Such an event stays parked, without
   * deadline, until the input is there (its module deadline starts then).
   *
   * @throws UnusableEventException when the input can never be had (the object is gone)
   */
  default boolean awaitingInput(CrashEvent event, long nowMillis) {
    return false;
  }

  /** The event left the step for good (emitted or dead-lettered): whatever was kept for it may go. */
  default void done(CrashEvent event) {}

  /** Format version of the tables this platform's engine writes (0: no tables). */
  default int tableFormatVersion() {
    return 0;
  }

  /** Oldest table format the engine still reads; older tables count as absent. */
  default int minReadableTableVersion() {
    return tableFormatVersion();
  }

  /**
   * The caching rules for this step's modules, with its table versions ({@code startedAt}: when
   * the instance started); a step that reads tables of more than one kind gives each its own.
   */
  default ModuleReadiness readiness(long startedAt) {
    return new ModuleReadiness(tableFormatVersion(), minReadableTableVersion(), startedAt);
  }

  /**
   * The platform whose tables hold a module of the output ({@code symbols.missing},
   * {@code symbols.requests}): the step's own, or another kind the step reads (the .NET modules
   * of a native event are {@code dotnet}).
   */
  default Platform tablePlatform(CrashEvent event, ModuleResult module) {
    return platform();
  }

  SymbolicatedEvent symbolicate(CrashEvent event, SymbolLookup lookup, long nowMillis);

  /** Symbolicates without a store (every module unknown). */
  default SymbolicatedEvent symbolicate(CrashEvent event, long nowMillis) {
    return symbolicate(event, SymbolLookup.NONE, nowMillis);
  }
}
