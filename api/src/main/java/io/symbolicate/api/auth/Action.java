package io.symbolicate.api.auth;

import java.util.Locale;

/**
 * What an API key may do. One key list serves the whole HTTP surface: the symbol uploads today,
 * the crash collector, and the symbolication endpoints when they ask for keys.
 */
public enum Action {
  /** Call the symbolication endpoints in the key's scope. */
  SYMBOLICATE,
  /** Upload symbol files into the key's scope. */
  UPLOAD,
  /** Submit crash events into the key's scope. */
  SUBMIT;

  /** The name used in the configuration ({@code symbolicate}, {@code upload}, {@code submit}). */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }

  static Action parse(String name) {
    for (Action a : values()) {
      if (a.configName().equals(name)) {
        return a;
      }
    }
    throw new IllegalArgumentException(
        "unknown API key action '" + name + "' (expected symbolicate, upload, submit)");
  }
}
