package io.symbolicate.api.status;

import io.symbolicate.api.ApiRoutes;

/** Mounts the status page and what it loads: {@code /status}, {@code /status.json}, its script and style. */
public final class StatusRoutes {
  private StatusRoutes() {}

  public static ApiRoutes mount(ApiRoutes routes, StatusSource source) {
    return routes
        .handler("/status", new StatusPageEndpoint(source))
        .handler("/status.json", new StatusJsonEndpoint(source))
        .handler(
            "/status.js", new StatusAssetEndpoint("status.js", "text/javascript; charset=utf-8"))
        .handler("/status.css", new StatusAssetEndpoint("status.css", "text/css; charset=utf-8"));
  }
}
