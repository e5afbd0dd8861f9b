package io.symbolicate.api.server;

import java.io.IOException;

/**
 * The code serving a route: reads the {@link Request}, answers on the {@link Response}. The
 * server completes the exchange when it returns (an answer not started by then is a 500, or a
 * 408 when the body arrived too slowly); an exception before the answer started is a 500 too.
 * A handler that also implements {@link ReadsWholeBody} gets its POST body received first.
 */
@FunctionalInterface
public interface Handler {
  void handle(Request request, Response response) throws IOException;
}
