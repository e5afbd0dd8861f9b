package io.symbolicate.api.status;

/** Where the status page's numbers come from (the app builds it from its meters and consumers). */
@FunctionalInterface
public interface StatusSource {
  StatusSnapshot snapshot();
}
