package io.symbolicate.topology;

import java.util.List;

/** The topic names in use, overridable per deployment. */
public record TopicNames(String raw, String symbolicated, String dlq) {

  public static TopicNames defaults() {
    return new TopicNames(Topics.RAW, Topics.SYMBOLICATED, Topics.DLQ);
  }

  public List<String> outputs() {
    return List.of(symbolicated, dlq);
  }

  public List<String> all() {
    return List.of(raw, symbolicated, dlq);
  }
}
