package io.symbolicate.schema.topic;

import java.util.List;

/** The topic names in use, overridable per deployment. */
public record TopicNames(String raw, String symbolicated, String dlq, String requests, String tables,
    String index, String uploads, String missing) {

  public TopicNames(String raw, String symbolicated, String dlq) {
    this(raw, symbolicated, dlq, Topics.SYMBOL_REQUESTS, Topics.SYMBOL_TABLES, Topics.SYMBOL_INDEX,
        Topics.SYMBOL_UPLOADS, Topics.SYMBOLS_MISSING);
  }

  public static TopicNames defaults() {
    return new TopicNames(Topics.RAW, Topics.SYMBOLICATED, Topics.DLQ);
  }

  /** Topics whose records are replaced by key (log compaction). */
  public List<String> compacted() {
    return List.of(tables, index, missing);
  }

  public List<String> all() {
    return List.of(raw, symbolicated, dlq, requests, tables, index, uploads, missing);
  }
}
