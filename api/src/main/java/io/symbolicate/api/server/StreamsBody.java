package io.symbolicate.api.server;

import java.io.IOException;

/**
 * A handler that reads a large body as a stream on its thread (the crash collector): the server
 * asks it first to refuse the request from its headers alone (an announced length over the
 * limit: answered at once, nothing read, no thread or slot held), then receives the start of the
 * body on no thread ({@link #receivedFirst}), and runs the handler only once that has arrived. A
 * client that announces a body and sends nothing, or trickles it, then holds a connection and the
 * bytes it sent until it falls behind the minimum rate (408), never a thread nor a handler's slot.
 */
public interface StreamsBody {
  /**
   * Answers {@code response} and returns true to refuse the request without reading its body;
   * false lets it through. Runs before the body is waited for: it must not read it nor block.
   */
  boolean refusedEarly(Request request, Response response) throws IOException;

  /**
   * Bytes of the body the server receives before the handler runs (all of it when the body is
   * shorter), claimed from {@link #receiveBudget} as they arrive; the handler reads them first,
   * then the rest from the connection. 1 (the default): the handler runs as soon as the first
   * bytes arrived.
   */
  default int receivedFirst() {
    return 1;
  }

  /**
   * What bodies waiting for {@link #receivedFirst} bytes may hold together; when it is spent, a
   * body goes to its handler with what it has. Null: no budget (only with a small
   * {@link #receivedFirst}).
   */
  default ReadsWholeBody.ReceiveBudget receiveBudget() {
    return null;
  }
}
