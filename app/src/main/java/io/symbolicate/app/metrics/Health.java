package io.symbolicate.app.metrics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Whether this instance is ready to serve, for {@code GET /health} (a Kubernetes readiness
 * probe): {@link StreamsHealth} for {@code run}, {@link LocalStoreHealth} without Kafka.
 */
public interface Health {
  Report check();

  /** UP answers 200; STARTING and DOWN answer 503. */
  enum Status {
    UP,
    STARTING,
    DOWN
  }

  /** @param details the other top-level fields of the JSON answer ({@code streams}, {@code store}, ...) */
  record Report(Status status, Map<String, Object> details) {
    public Report {
      details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }

    public boolean ready() {
      return status == Status.UP;
    }

    /** The JSON object: {@code status} first, then the details. */
    public Map<String, Object> asJson() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("status", status.name());
      m.putAll(details);
      return m;
    }
  }
}
