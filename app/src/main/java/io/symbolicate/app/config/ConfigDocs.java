package io.symbolicate.app.config;

/** The configuration table of docs/configuration.md, generated from {@link ConfigKeys}. */
public final class ConfigDocs {
  /** The lines that enclose the generated table in docs/configuration.md. */
  public static final String START = "<!-- config-table:start -->";

  public static final String END = "<!-- config-table:end -->";

  private ConfigDocs() {}

  /** One row per key, in {@link ConfigKeys#ALL}'s order, with the header. */
  public static String table() {
    StringBuilder sb = new StringBuilder("| key | default | meaning |\n|---|---|---|\n");
    for (ConfigKey k : ConfigKeys.ALL) {
      sb.append("| `")
          .append(k.name())
          .append("` | ")
          .append(k.documentedDefault())
          .append(" | ")
          .append(k.doc())
          .append(" |\n");
    }
    return sb.toString();
  }

  /** {@code page} with the text between {@link #START} and {@link #END} replaced by {@link #table()}. */
  public static String withTable(String page) {
    int start = page.indexOf(START);
    int end = page.indexOf(END);
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("the page has no " + START + " ... " + END + " block");
    }
    return page.substring(0, start + START.length()) + "\n" + table() + page.substring(end);
  }
}
