package io.symbolicate.symbols.dwarf;

import java.util.ArrayList;
import java.util.List;

/**
 * Source paths as Mozilla's dump_syms writes them: the directory joined to the compile
 * directory unless absolute, the name joined to that (one '/' between), then {@code .} and
 * {@code ..} folded the way it normalises a path it cannot resolve on disk.
 */
final class Paths {
  private Paths() {}

  static String join(String compDir, String dir, String name) {
    if (name != null && name.startsWith("/")) {
      return normalize(name); // clang's DWARF 5 names the primary file by its absolute path
    }
    String d = dir == null ? "" : dir;
    if (!d.startsWith("/") && compDir != null && !compDir.isEmpty()) {
      d = joinTwo(compDir, d);
    }
    return normalize(joinTwo(d, name == null ? "" : name));
  }

  private static String joinTwo(String left, String right) {
    int e = left.length();
    while (e > 0 && left.charAt(e - 1) == '/') {
      e--;
    }
    int s = 0;
    while (s < right.length() && right.charAt(s) == '/') {
      s++;
    }
    return left.substring(0, e) + "/" + right.substring(s);
  }

  /** Cargo's normalize_path: components, '.' dropped, '..' pops, no trailing slash. */
  static String normalize(String path) {
    boolean absolute = path.startsWith("/");
    List<String> parts = new ArrayList<>();
    for (String c : path.split("/")) {
      if (c.isEmpty() || c.equals(".")) {
        continue;
      }
      if (c.equals("..")) {
        if (!parts.isEmpty()) {
          parts.remove(parts.size() - 1);
        }
        continue;
      }
      parts.add(c);
    }
    return (absolute ? "/" : "") + String.join("/", parts);
  }
}
