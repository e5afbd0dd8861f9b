package io.symbolicate.symbols.nativecode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Shapes a lookup result like Mozilla's symbolication API (eliot): v5 frames with
 * {@code function_offset} relative to the FUNC start, {@code file}/{@code line} only when a line
 * record matched, and inlines innermost first; v4 strings "function (in module)".
 */
public final class MozillaApiFrames {
  private MozillaApiFrames() {}

  /** A v5 frame for a found address (the HTTP layer adds the not-found shape). */
  public static Map<String, Object> v5Frame(NativeFrame f, int frameIndex, String module) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("frame", frameIndex);
    m.put("module", module);
    m.put("module_offset", Unsigned.hex(f.address()));
    m.put("function", f.function());
    m.put("function_offset", Unsigned.hex(f.functionOffset()));
    if (f.file() != null) {
      m.put("file", f.file());
    }
    if (f.line() != null && f.lineBase() != null) {
      m.put("line", f.line());
    }
    if (!f.inlines().isEmpty()) {
      List<Map<String, Object>> inl = new ArrayList<>();
      for (InlineFrame i : f.inlines()) {
        Map<String, Object> im = new LinkedHashMap<>();
        im.put("function", i.function());
        if (i.file() != null) {
          im.put("file", i.file());
        }
        if (i.line() != null) {
          im.put("line", i.line());
        }
        inl.add(im);
      }
      m.put("inlines", inl);
    }
    return m;
  }

  public static String v4String(NativeFrame f, String module) {
    return f.function() + " (in " + module + ")";
  }
}
