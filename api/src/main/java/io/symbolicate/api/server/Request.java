package io.symbolicate.api.server;

import java.io.InputStream;
import java.time.Duration;

/** An HTTP request as a {@link Handler} sees it. */
public interface Request {
  /** {@code GET}, {@code POST}, ... as sent. */
  String method();

  /** The path, percent-decoded. */
  String path();

  /** The path as sent (percent-encoded). */
  String rawPath();

  /** The query as sent, without the {@code ?}; null without one. */
  String rawQuery();

  /** The first value of a header (names are case-insensitive), or null. */
  String header(String name);

  boolean hasHeader(String name);

  /**
   * The body: already received for a {@link ReadsWholeBody} handler, otherwise read from the
   * connection as it arrives, at the server's minimum rate (a read falling behind fails, and
   * the server answers 408).
   */
  InputStream body();

  /**
   * From now on, the streamed body must keep the server's minimum rate counted from this moment
   * after only {@code grace} (instead of the request's {@code http.body.timeout.ms} from its
   * start): a handler that took a scarce slot for this body calls it, so that a body trickling
   * a few bytes a second gives the slot back within {@code grace} (the server answers 408).
   * Nothing for a body already received whole.
   */
  default void holdBodyToRate(Duration grace) {}
}
