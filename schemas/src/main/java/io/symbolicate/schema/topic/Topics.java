package io.symbolicate.schema.topic;

import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.MissingSymbols;
import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.SymbolRequest;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.schema.topic.Topic.Cleanup;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;

/** Every topic the application reads or writes, in one place: name, key and value serdes, cleanup. */
public final class Topics {
  /** Raw crash events, Avro single-object or JSON, decoded by the topology itself. */
  public static final Topic<byte[], byte[]> RAW =
      new Topic<>(
          "topic.raw",
          "crash-events.raw",
          Serdes::ByteArray,
          Serdes::ByteArray,
          Cleanup.DELETE,
          "input: raw crash events (Avro single-object or JSON)");

  /** Symbolicated events, keyed by event id. */
  public static final Topic<String, SymbolicatedEvent> SYMBOLICATED =
      new Topic<>(
          "topic.symbolicated",
          "crash-events.symbolicated",
          Serdes::String,
          WireSerdes::symbolicatedEvent,
          Cleanup.DELETE,
          "output: symbolicated events");

  /** Input records that could not be processed, with their bytes and a reason; keyed by the input's key. */
  public static final Topic<byte[], DeadLetter> DLQ =
      new Topic<>(
          "topic.dlq",
          "crash-events.dlq",
          Serdes::ByteArray,
          WireSerdes::deadLetter,
          Cleanup.DELETE,
          "output: dead letters with their reasons");

  /** Modules the stream (or the API) needs, keyed by module reference; read by the loader. */
  public static final Topic<String, SymbolRequest> SYMBOL_REQUESTS =
      new Topic<>(
          "topic.requests",
          "symbols.requests",
          Serdes::String,
          WireSerdes::symbolRequest,
          Cleanup.DELETE,
          "stream and API to loader: modules needed");

  /** Table pages and module states (keys of {@code TableKeys}); written by the loader, read by the stores. */
  public static final Topic<byte[], byte[]> SYMBOL_TABLES =
      new Topic<>(
          "topic.tables",
          "symbols.tables",
          Serdes::ByteArray,
          Serdes::ByteArray,
          Cleanup.COMPACT,
          "loader to stores: table pages and module states");

  /** Module states only, keyed by module reference, so a loader rebuilds its bookkeeping quickly. */
  public static final Topic<String, ModuleState> SYMBOL_INDEX =
      new Topic<>(
          "topic.index",
          "symbols.index",
          Serdes::String,
          WireSerdes::moduleState,
          Cleanup.COMPACT,
          "loader to loader: module states");

  /** Upload announcements (a request with reason upload): replace cached answers at once. */
  public static final Topic<String, SymbolRequest> SYMBOL_UPLOADS =
      new Topic<>(
          "topic.uploads",
          "symbols.uploads",
          Serdes::String,
          WireSerdes::symbolRequest,
          Cleanup.DELETE,
          "uploaders to loader: new or replaced symbol files");

  /** Per module: how often it was missing, first and last seen. */
  public static final Topic<String, MissingSymbols> SYMBOLS_MISSING =
      new Topic<>(
          "topic.missing",
          "symbols.missing",
          Serdes::String,
          WireSerdes::missingSymbols,
          Cleanup.COMPACT,
          "output: modules that were missing, with counts");

  /** In the order of {@link TopicNames#all()}. */
  public static final List<Topic<?, ?>> ALL =
      List.of(
          RAW,
          SYMBOLICATED,
          DLQ,
          SYMBOL_REQUESTS,
          SYMBOL_TABLES,
          SYMBOL_INDEX,
          SYMBOL_UPLOADS,
          SYMBOLS_MISSING);

  private Topics() {}
}
