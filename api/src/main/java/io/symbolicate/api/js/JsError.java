package io.symbolicate.api.js;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Comparator;
import java.util.Locale;
import java.util.Objects;

/**
 * One entry of the response's {@code errors}, Symbolicator's {@code JsModuleError}: the frame's
 * {@code abs_path}, a {@code type} and that type's fields. Errors are deduplicated and sorted
 * (by abs_path, then type in Symbolicator's declaration order, then fields), as Symbolicator's
 * sorted set does.
 */
record JsError(
    String absPath,
    Kind kind,
    Integer line,
    Integer col,
    String source,
    String sourcemap,
    String url)
    implements Comparable<JsError> {

  /** In Symbolicator's declaration order, which is also its sort order. */
  enum Kind {
    INVALID_LOCATION,
    INVALID_ABS_PATH,
    NO_COLUMN,
    MISSING_SOURCE_CONTENT,
    MISSING_SOURCE,
    MALFORMED_SOURCEMAP,
    MISSING_SOURCEMAP,
    INVALID_BASE64_SOURCEMAP,
    SCRAPING_DISABLED;

    String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  static JsError of(String absPath, Kind kind) {
    return new JsError(absPath, kind, null, null, null, null, null);
  }

  static JsError invalidLocation(String absPath, int line, Integer col) {
    return new JsError(absPath, Kind.INVALID_LOCATION, line, col, null, null, null);
  }

  static JsError missingSourceContent(String absPath, String source, String sourcemap) {
    return new JsError(absPath, Kind.MISSING_SOURCE_CONTENT, null, null, source, sourcemap, null);
  }

  static JsError malformedSourcemap(String absPath, String url) {
    return new JsError(absPath, Kind.MALFORMED_SOURCEMAP, null, null, null, null, url);
  }

  private static final Comparator<JsError> ORDER =
      Comparator.comparing(JsError::absPath)
          .thenComparing(JsError::kind)
          .thenComparing(JsError::line, Comparator.nullsFirst(Comparator.naturalOrder()))
          .thenComparing(JsError::col, Comparator.nullsFirst(Comparator.naturalOrder()))
          .thenComparing(JsError::source, Comparator.nullsFirst(Comparator.naturalOrder()))
          .thenComparing(JsError::sourcemap, Comparator.nullsFirst(Comparator.naturalOrder()))
          .thenComparing(JsError::url, Comparator.nullsFirst(Comparator.naturalOrder()));

  @Override
  public int compareTo(JsError o) {
    return ORDER.compare(this, o);
  }

  ObjectNode toJson() {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("abs_path", absPath);
    n.put("type", kind.wire());
    switch (kind) {
      case INVALID_LOCATION -> {
        n.put("line", line);
        if (col == null) {
          n.putNull("col");
        } else {
          n.put("col", col);
        }
      }
      case MISSING_SOURCE_CONTENT -> {
        n.put("source", Objects.requireNonNullElse(source, ""));
        n.put("sourcemap", Objects.requireNonNullElse(sourcemap, ""));
      }
      case MALFORMED_SOURCEMAP -> n.put("url", url);
      default -> {}
    }
    return n;
  }
}
