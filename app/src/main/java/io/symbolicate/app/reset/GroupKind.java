package io.symbolicate.app.reset;

/** How the app's group rebalances, as far as the broker knows it. */
public enum GroupKind {
  NONE,
  CLASSIC,
  STREAMS
}
