package io.symbolicate.api.server;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * The routes a server serves, each {@link Route} bound to its {@link Handler}: the one table of
 * the HTTP API, filled by the app with what is configured on ({@code upload.enabled},
 * {@code collector.enabled}, the top crashers, ...). Routes are kept in {@link Route}'s order.
 */
public final class RouteTable {
  private final Map<Route, Handler> handlers;

  private RouteTable(Map<Route, Handler> handlers) {
    this.handlers = Collections.unmodifiableMap(new EnumMap<>(handlers));
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The routes served. */
  public Set<Route> routes() {
    return handlers.keySet();
  }

  /** The handler of {@code route}, or null when it is not served. */
  public Handler handler(Route route) {
    return handlers.get(route);
  }

  /** Route to handler, in {@link Route}'s order. */
  public Map<Route, Handler> handlers() {
    return handlers;
  }

  /** The same routes, each handler replaced by {@code wrap(route, handler)}. */
  public RouteTable map(BiFunction<Route, Handler, Handler> wrap) {
    Map<Route, Handler> m = new EnumMap<>(Route.class);
    handlers.forEach((r, h) -> m.put(r, wrap.apply(r, h)));
    return new RouteTable(m);
  }

  @Override
  public String toString() {
    return handlers.keySet().toString();
  }

  public static final class Builder {
    private final Map<Route, Handler> handlers = new EnumMap<>(Route.class);

    private Builder() {}

    /** Serves {@code route} with {@code handler}; a route is bound once. */
    public Builder add(Route route, Handler handler) {
      if (handler == null) {
        throw new IllegalArgumentException(route.name() + ": no handler");
      }
      if (handlers.putIfAbsent(route, handler) != null) {
        throw new IllegalArgumentException(route.name() + " is bound twice");
      }
      return this;
    }

    public RouteTable build() {
      return new RouteTable(handlers);
    }
  }
}
