package io.symbolicate.api.server;

import java.io.IOException;

/**
 * A handler that reads a large body as a stream on its thread (the crash collector): the server
 * asks it first to refuse the request from its headers alone (an announced length over the
 * limit: answered at once, nothing read, no thread or slot held), and runs it only once the first
 * bytes of the body have arrived. A client that announces a body and sends nothing then holds a
 * connection until the body grace ends (408), never a thread.
 */
public interface StreamsBody {
  /**
   * Answers {@code response} and returns true to refuse the request without reading its body;
   * false lets it through. Runs before the body is waited for: it must not read it nor block.
   */
  boolean refusedEarly(Request request, Response response) throws IOException;
}
