package io.symbolicate.api;

/**
 * A {@link Symbolication} with no symbols behind it: for the handlers' shapes (parse, events,
 * render) and file answers tested without a server.
 */
public final class DetachedSymbolication {
  private DetachedSymbolication() {}

  /** Requests of at most {@code maxFrames} frames, stacks and modules ({@code http.max.frames}). */
  public static Symbolication withMaxFrames(int maxFrames) {
    return new Symbolication(null, ApiSettings.defaults().withMaxFrames(maxFrames));
  }

  public static Symbolication defaults() {
    return new Symbolication(null, ApiSettings.defaults());
  }
}
