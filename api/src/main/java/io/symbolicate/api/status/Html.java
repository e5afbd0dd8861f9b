package io.symbolicate.api.status;

/** Escaping for text and attribute values of the server-rendered page. */
final class Html {
  private Html() {}

  /** Every character that could end a text node or a quoted attribute is written as a reference. */
  static String escape(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        case '`' -> b.append("&#96;");
        default -> {
          // controls other than tab and newline carry no meaning on the page
          if (c < 0x20 && c != '\t' && c != '\n') {
            b.append('\uFFFD');
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.toString();
  }
}
