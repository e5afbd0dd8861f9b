package io.symbolicate.symbols.js;

/** A decoded page of a {@link JsTable}: mappings or source content. */
public sealed interface JsPage permits MappingPage, ContentPage, FunctionMapPage {

  /** Decodes one stored page (the {@code byte[] -> page} function a page source needs). */
  static JsPage decode(byte[] bytes) {
    if (bytes.length == 0) {
      throw new IllegalArgumentException("empty js table page");
    }
    return switch (bytes[0]) {
      case MappingPage.TAG -> MappingPage.decode(bytes);
      case ContentPage.TAG -> ContentPage.decode(bytes);
      case FunctionMapPage.TAG -> FunctionMapPage.decode(bytes);
      default -> throw new IllegalArgumentException("unknown js table page tag " + bytes[0]);
    };
  }
}
