package io.symbolicate.api.analytics;

import io.symbolicate.api.ApiRoutes;
import java.time.Clock;

/** Mounts the top-crasher routes, public and internal, on the API's routes. */
public final class AnalyticsRoutes {
  private AnalyticsRoutes() {}

  public static ApiRoutes mount(ApiRoutes routes, CrashQueries queries) {
    return routes
        .handler(TopCrashersEndpoint.PATH, new TopCrashersEndpoint(queries, Clock.systemUTC()))
        .handlerUnder(SignatureEndpoint.PREFIX, new SignatureEndpoint(queries))
        .handler(CrashQueries.PART_PATH, PartEndpoints.crashers(queries))
        .handler(CrashQueries.SIGNATURE_PART_PATH, PartEndpoints.signature(queries));
  }
}
