package io.symbolicate.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** Field-by-field differences of two JSON trees, by path, for readable snapshot failures. */
public final class JsonDiffs {
  private JsonDiffs() {}

  public static List<String> diff(JsonNode expected, JsonNode actual) {
    List<String> out = new ArrayList<>();
    diff("$", expected, actual, out);
    return out;
  }

  private static void diff(String path, JsonNode e, JsonNode a, List<String> out) {
    if (e == null || a == null) {
      if (e != a) {
        out.add(path + ": expected " + e + ", got " + a);
      }
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
        out.add(path + ": expected " + e.size() + " items, got " + a.size());
      }
      for (int i = 0; i < Math.min(e.size(), a.size()); i++) {
        diff(path + "[" + i + "]", e.get(i), a.get(i), out);
      }
    } else if (!e.equals(a)
        && !(e.isNumber() && a.isNumber() && e.decimalValue().compareTo(a.decimalValue()) == 0)) {
      out.add(path + ": expected " + e + ", got " + a);
    }
  }
}
