package io.symbolicate.schema.topic;

import java.util.List;

/** The topic names of a deployment: each {@link Topics} entry's default, unless configured otherwise. */
public record TopicNames(
    String raw,
    String symbolicated,
    String dlq,
    String requests,
    String tables,
    String index,
    String uploads,
    String missing) {

  public TopicNames(String raw, String symbolicated, String dlq) {
    this(
        raw,
        symbolicated,
        dlq,
        Topics.SYMBOL_REQUESTS.defaultName(),
        Topics.SYMBOL_TABLES.defaultName(),
        Topics.SYMBOL_INDEX.defaultName(),
        Topics.SYMBOL_UPLOADS.defaultName(),
        Topics.SYMBOLS_MISSING.defaultName());
  }

  public static TopicNames defaults() {
    return new TopicNames(
        Topics.RAW.defaultName(), Topics.SYMBOLICATED.defaultName(), Topics.DLQ.defaultName());
  }

  /** The name this deployment gives {@code topic}. */
  public String name(Topic<?, ?> topic) {
    return all().get(Topics.ALL.indexOf(topic));
  }

  /** Topics whose records are replaced by key (log compaction). */
  public List<String> compacted() {
    return Topics.ALL.stream().filter(Topic::compacted).map(this::name).toList();
  }

  /** Every name, in the order of {@link Topics#ALL}. */
  public List<String> all() {
    return List.of(raw, symbolicated, dlq, requests, tables, index, uploads, missing);
  }
}
