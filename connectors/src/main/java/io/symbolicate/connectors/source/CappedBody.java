package io.symbolicate.connectors.source;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body read into memory up to {@code max} bytes: one byte more cancels the exchange
 * and fails with {@link TooLarge}, so an answer that lies about (or omits) its length costs at
 * most the limit. {@code skip}: the body is not wanted (an error status, or a declared length
 * over the limit) and the exchange is cancelled at once.
 */
final class CappedBody implements HttpResponse.BodySubscriber<byte[]> {
  /** The body passed the limit. */
  static final class TooLarge extends RuntimeException {
    TooLarge(String message) {
      super(message, null, false, false);
    }
  }

  private final long max;
  private final String skip;
  private final CompletableFuture<byte[]> result = new CompletableFuture<>();
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private Flow.Subscription subscription;

  /** @param skip null to read the body; else why not, the body then completes as empty */
  CappedBody(long max, String skip) {
    this.max = max;
    this.skip = skip;
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    subscription = s;
    if (skip != null) {
      s.cancel();
      result.complete(new byte[0]);
    } else {
      s.request(Long.MAX_VALUE);
    }
  }

  @Override
  public void onNext(List<ByteBuffer> items) {
    if (result.isDone()) {
      return;
    }
    for (ByteBuffer b : items) {
      if (out.size() + (long) b.remaining() > max) {
        subscription.cancel();
        result.completeExceptionally(new TooLarge("over " + max + " bytes"));
        return;
      }
      byte[] a = new byte[b.remaining()];
      b.get(a);
      out.write(a, 0, a.length);
    }
  }

  @Override
  public void onError(Throwable t) {
    result.completeExceptionally(t);
  }

  @Override
  public void onComplete() {
    result.complete(out.toByteArray());
  }

  @Override
  public CompletionStage<byte[]> getBody() {
    return result;
  }
}
