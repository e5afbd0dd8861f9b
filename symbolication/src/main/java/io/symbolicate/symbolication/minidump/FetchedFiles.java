package io.symbolicate.symbolication.minidump;

import io.symbolicate.schema.Attachment;
import io.symbolicate.schema.ErrorKind;
import io.symbolicate.symbolication.platform.UnusableEventException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The files of parked events, fetched off the stream threads and kept until their event leaves
 * (one instance, shared by its stream threads). Bounded: a fetch starts only while the bytes held
 * and reserved stay under {@code maxHeldBytes} (the first one always may), so a burst of large
 * dumps waits for room instead of filling the heap; an entry untouched for {@code idleMillis}
 * (its event moved to another instance) is dropped. A transient failure is tried again after
 * {@code retryMillis}; a permanent one fails the event.
 */
final class FetchedFiles {
  private final AttachmentFetcher fetcher;
  private final long maxFileBytes;
  private final long maxHeldBytes;
  private final long retryMillis;
  private final long idleMillis;
  private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
  private final AtomicLong held = new AtomicLong();
  private volatile long lastSweep;

  private static final class Entry {
    final CompletableFuture<byte[]> future;
    final long reserved;
    volatile long lastUsed;
    volatile long failedAt;

    Entry(CompletableFuture<byte[]> future, long reserved, long now) {
      this.future = future;
      this.reserved = reserved;
      this.lastUsed = now;
    }
  }

  FetchedFiles(
      AttachmentFetcher fetcher,
      long maxFileBytes,
      long maxHeldBytes,
      long retryMillis,
      long idleMillis) {
    this.fetcher = fetcher;
    this.maxFileBytes = maxFileBytes;
    this.maxHeldBytes = maxHeldBytes;
    this.retryMillis = retryMillis;
    this.idleMillis = idleMillis;
  }

  /**
   * The file's bytes once fetched, else null (the fetch is started or still running).
   *
   * @throws UnusableEventException when the file can never be had
   */
  byte[] get(String id, Attachment a, long now) {
    sweep(now);
    Entry e = entries.get(id);
    if (e == null) {
      start(id, a, now);
      return null;
    }
    e.lastUsed = now;
    if (!e.future.isDone()) {
      return null;
    }
    try {
      return e.future.join();
    } catch (CompletionException | java.util.concurrent.CancellationException ex) {
      Throwable cause = ex.getCause() != null ? ex.getCause() : ex;
      if (cause instanceof AttachmentUnavailableException u && u.permanent()) {
        release(id);
        throw new UnusableEventException(
            ErrorKind.attachment_unavailable, describe(a) + ": " + u.getMessage());
      }
      if (e.failedAt == 0) {
        e.failedAt = now;
      } else if (now - e.failedAt >= retryMillis) {
        release(id);
        start(id, a, now);
      }
      return null;
    }
  }

  /** The file's bytes if fetched, without side effects; else null. */
  byte[] peek(String id) {
    Entry e = entries.get(id);
    return e != null && e.future.isDone() && !e.future.isCompletedExceptionally()
        ? e.future.join()
        : null;
  }

  /** Forgets the file of {@code id} (its event left). */
  void release(String id) {
    Entry e = entries.remove(id);
    if (e != null) {
      held.addAndGet(-e.reserved);
    }
  }

  /** Bytes held or reserved by fetches (for metrics and tests). */
  long heldBytes() {
    return held.get();
  }

  int size() {
    return entries.size();
  }

  private void start(String id, Attachment a, long now) {
    if (a.getSize() != null && a.getSize() > maxFileBytes) {
      throw new UnusableEventException(
          ErrorKind.too_large,
          describe(a)
              + " is "
              + a.getSize()
              + " bytes, more than minidump.max.bytes="
              + maxFileBytes);
    }
    long reserve = a.getSize() != null && a.getSize() > 0 ? a.getSize() : maxFileBytes;
    long before = held.get();
    if (before > 0 && before + reserve > maxHeldBytes) {
      return; // no room now: asked again at the next pass
    }
    held.addAndGet(reserve);
    CompletableFuture<byte[]> f;
    try {
      f =
          fetcher
              .fetch(
                  a.getBucket() == null ? null : a.getBucket().toString(),
                  a.getKey().toString(),
                  maxFileBytes)
              .thenApply(bytes -> verified(bytes, a));
    } catch (RuntimeException ex) {
      f =
          CompletableFuture.failedFuture(
              new AttachmentUnavailableException(false, "the fetch did not start: " + ex, ex));
    }
    Entry previous = entries.put(id, new Entry(f, reserve, now));
    if (previous != null) {
      held.addAndGet(-previous.reserved);
    }
  }

  private static byte[] verified(byte[] bytes, Attachment a) {
    if (a.getSize() != null && a.getSize() != bytes.length) {
      throw new CompletionException(
          new AttachmentUnavailableException(
              true, "the object has " + bytes.length + " bytes, the event says " + a.getSize()));
    }
    if (a.getSha256() != null) {
      String actual = sha256(bytes);
      if (!actual.equals(a.getSha256().toString().toLowerCase(Locale.ROOT))) {
        throw new CompletionException(
            new AttachmentUnavailableException(
                true, "the object's SHA-256 is " + actual + ", the event says " + a.getSha256()));
      }
    }
    return bytes;
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  static String describe(Attachment a) {
    return "s3://"
        + (a.getBucket() == null ? "(default bucket)" : a.getBucket())
        + "/"
        + a.getKey();
  }

  private void sweep(long now) {
    if (now - lastSweep < idleMillis / 4) {
      return;
    }
    lastSweep = now;
    entries.forEach(
        (id, e) -> {
          if (now - e.lastUsed >= idleMillis && e.future.isDone()) {
            release(id);
          }
        });
  }
}
