package io.symbolicate.app.config;

/**
 * A configuration key: its name, its default, and what docs/configuration.md says of it.
 *
 * @param defaultValue the value when nothing sets it ("" when the key has none)
 * @param shownDefault how the docs show the default, when the value itself would not say it
 *     (machine-dependent, or empty); null to show the value
 */
public record ConfigKey(String name, String defaultValue, String shownDefault, String doc) {

  static ConfigKey of(String name, String defaultValue, String doc) {
    return new ConfigKey(name, defaultValue, null, doc);
  }

  static ConfigKey shown(String name, String defaultValue, String shownDefault, String doc) {
    return new ConfigKey(name, defaultValue, shownDefault, doc);
  }

  /** The default as the docs' table shows it. */
  public String documentedDefault() {
    return shownDefault != null ? shownDefault : "`" + defaultValue + "`";
  }

  @Override
  public String toString() {
    return name;
  }
}
