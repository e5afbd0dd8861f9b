package io.symbolicate.signatures;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Our rule for JavaScript exceptions, in the spirit of Socorro's: the exception type, then the
 * first {@link #SIGNATURE_FRAMES} meaningful in-app frames, by normalized function name. A frame
 * is in-app when the client says so ({@code in_app}), otherwise when its file does not match
 * {@code js_not_in_app_re}; it is meaningful when its normalized function is not anonymous and
 * does not match {@code js_irrelevant_function_re}. Recursion (the same name twice in a row)
 * counts once. The rule is documented in docs/signatures.md.
 */
final class JsSignatureTool {
  /** How many meaningful in-app frames make a JavaScript signature. */
  static final int SIGNATURE_FRAMES = 2;

  /** Frames past these are not read (as siggen's MAXIMUM_FRAMES_TO_CONSIDER for native). */
  static final int MAXIMUM_FRAMES_TO_CONSIDER = NativeSignatureTool.MAXIMUM_FRAMES_TO_CONSIDER;

  /** A normalized name or file label longer than this is cut (bounded regex work). */
  static final int MAX_NAME_CHARS = NativeSignatureTool.MAX_NORMALIZED_FRAME_CHARS;

  static final String DEFAULT_TYPE = "Error";

  private static final Pattern ALIAS_SUFFIX = Pattern.compile("\\s*\\[as [^\\]]*\\]$");
  private static final Pattern CONTENT_HASH = Pattern.compile("[.\\-_][0-9a-fA-F]{8,}(?=\\.)");
  private static final List<String> LEADING_WORDS =
      List.of("async ", "new ", "bound ", "get ", "set ");
  private static final List<String> RECEIVERS =
      List.of("Object.", "Module.", "exports.", "module.exports.");

  private final SignatureLists lists;

  JsSignatureTool(SignatureLists lists) {
    this.lists = lists;
  }

  record JsGenerated(
      String signature, List<String> normalizedFrames, List<String> notes, List<String> debug) {}

  /**
   * A function name as it should group: without async/new/bound/get/set, a "[as alias]" suffix,
   * a V8 "Object."/"Module." receiver, and SpiderMonkey's "outer/inner<" path (the innermost
   * named part is kept); "" for anonymous functions.
   */
  static String normalizeFunction(String function) {
    if (function == null) {
      return "";
    }
    String f = PythonBuiltins.strip(function);
    boolean changed = true;
    while (changed) {
      changed = false;
      for (String w : LEADING_WORDS) {
        if (f.startsWith(w)) {
          f = PythonBuiltins.strip(f.substring(w.length()));
          changed = true;
        }
      }
    }
    f = ALIAS_SUFFIX.matcher(f).replaceAll("");
    for (String r : RECEIVERS) {
      if (f.startsWith(r) && f.length() > r.length()) {
        f = f.substring(r.length());
        break;
      }
    }
    if (f.endsWith("<") || f.indexOf('/') > 0) {
      String trimmed = PythonBuiltins.rstrip(f, "</");
      int slash = trimmed.lastIndexOf('/');
      f = slash >= 0 ? trimmed.substring(slash + 1) : trimmed;
    }
    if (f.equals("?")
        || f.equals("<anonymous>")
        || f.equals("anonymous")
        || f.equals("<unknown>")
        || f.equals("Object.<anonymous>")
        || f.equals("<anonymous function>")) {
      return "";
    }
    return cut(f);
  }

  /** The last part of a file path or URL, without query, fragment or a content hash. */
  static String fileLabel(String file) {
    if (file == null) {
      return "";
    }
    String f = file;
    int q = f.indexOf('?');
    if (q >= 0) {
      f = f.substring(0, q);
    }
    int h = f.indexOf('#');
    if (h >= 0) {
      f = f.substring(0, h);
    }
    f = PythonBuiltins.rstrip(f, "/\\");
    int slash = Math.max(f.lastIndexOf('/'), f.lastIndexOf('\\'));
    f = f.substring(slash + 1);
    return cut(CONTENT_HASH.matcher(f).replaceAll(""));
  }

  private static String cut(String s) {
    return s.length() > MAX_NAME_CHARS ? s.substring(0, MAX_NAME_CHARS) : s;
  }

  boolean inApp(JsFrame frame) {
    if (frame.inApp() != null) {
      return frame.inApp();
    }
    String file = frame.file();
    return file == null || !lists.jsNotInApp.matcher(cut(file)).lookingAt();
  }

  JsGenerated generate(JsException exception) {
    return generate(exception, true);
  }

  /** As above; without {@code debugging}, no debug lines are built (the list is empty). */
  JsGenerated generate(JsException exception, boolean debugging) {
    List<String> notes = new ArrayList<>();
    List<String> debug = debugging ? new ArrayList<>() : null;
    if (debugging) {
      debug.add(lists.describe());
    }
    List<JsFrame> frames = exception.frames();
    int count = Math.min(frames.size(), MAXIMUM_FRAMES_TO_CONSIDER);
    List<String> normalized = new ArrayList<>(count);
    List<String> picked = new ArrayList<>(SIGNATURE_FRAMES);
    String fallback = null;
    for (int i = 0; i < count; i++) {
      JsFrame frame = frames.get(i);
      String name = normalizeFunction(frame.function());
      String label = fileLabel(frame.file());
      normalized.add(!name.isEmpty() ? name : !label.isEmpty() ? label : "?");
      boolean inApp = inApp(frame);
      if (fallback == null && inApp && !label.isEmpty()) {
        fallback = label;
      }
      if (picked.size() >= SIGNATURE_FRAMES) {
        continue;
      }
      String why;
      if (!inApp) {
        why = "not in-app; ignoring: \"";
        name = normalized.get(i);
      } else if (name.isEmpty()) {
        why = "anonymous; ignoring: \"";
        name = normalized.get(i);
      } else if (lists.jsIrrelevant.matcher(name).lookingAt()) {
        why = "irrelevant; ignoring: \"";
      } else if (!picked.isEmpty() && picked.get(picked.size() - 1).equals(name)) {
        why = "repeated; ignoring: \"";
      } else {
        picked.add(name);
        why = "in-app; keeping: \"";
      }
      if (debugging) {
        debug.add(why + name + "\"");
      }
    }
    String type =
        exception.type() == null || PythonBuiltins.strip(exception.type()).isEmpty()
            ? DEFAULT_TYPE
            : PythonBuiltins.strip(exception.type());
    String signature;
    if (!picked.isEmpty()) {
      signature = type + " | " + String.join(" | ", picked);
    } else if (fallback != null) {
      notes.add("JsSignatureTool: no named in-app frame; using the file of the first in-app frame");
      signature = type + " | " + fallback;
    } else if (!normalized.isEmpty()) {
      notes.add("JsSignatureTool: no in-app frame; using the first frame");
      signature = type + " | " + normalized.get(0);
    } else {
      notes.add("JsSignatureTool: no frame data for the exception");
      signature = type + " | EMPTY: no frame data available";
    }
    return new JsGenerated(signature, normalized, notes, debugging ? debug : List.of());
  }
}
