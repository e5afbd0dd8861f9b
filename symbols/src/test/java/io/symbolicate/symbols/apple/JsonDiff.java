package io.symbolicate.symbols.apple;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** Field-by-field differences between two JSON trees, as {@code path: expected != actual}. */
final class JsonDiff {
  private JsonDiff() {}

  static List<String> diff(JsonNode expected, JsonNode actual) {
    List<String> out = new ArrayList<>();
    diff("$", expected, actual, out);
    return out;
  }

  private static void diff(String path, JsonNode e, JsonNode a, List<String> out) {
    if (out.size() >= 50) {
      return;
    }
    if (e == null || a == null) {
      out.add(path + ": " + (e == null ? "unexpected " + a : "missing, expected " + e));
      return;
    }
    if (e.isObject() && a.isObject()) {
      TreeSet<String> names = new TreeSet<>();
      e.fieldNames().forEachRemaining(names::add);
      a.fieldNames().forEachRemaining(names::add);
      for (String n : names) {
        diff(path + "." + n, e.get(n), a.get(n), out);
      }
    } else if (e.isArray() && a.isArray()) {
      if (e.size() != a.size()) {
        out.add(path + ": " + e.size() + " elements expected, " + a.size() + " found");
      }
      for (int i = 0; i < Math.min(e.size(), a.size()); i++) {
        diff(path + "[" + i + "]", e.get(i), a.get(i), out);
      }
    } else if (e.isNumber() && a.isNumber()) {
      if (!e.bigIntegerValue().equals(a.bigIntegerValue())
          || e.isFloatingPointNumber() != a.isFloatingPointNumber()) {
        out.add(path + ": " + e + " != " + a);
      }
    } else if (!e.equals(a)) {
      out.add(path + ": " + e + " != " + a);
    }
  }
}
