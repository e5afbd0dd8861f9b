package io.symbolicate.signatures;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * siggen's CSignatureTool: normalizes C, C++ and Rust frames and walks them with the frame
 * lists (sentinels, irrelevant, prefix) to make a signature.
 */
final class NativeSignatureTool {
  /** siggen's MAXIMUM_FRAMES_TO_CONSIDER: frames (inlines counted) past these are not read. */
  static final int MAXIMUM_FRAMES_TO_CONSIDER = 40;

  /**
   * A normalized frame longer than this is cut before it meets the lists, so that a hostile
   * function name cannot make regex matching costly (real normalized frames are far shorter).
   */
  static final int MAX_NORMALIZED_FRAME_CHARS = 2048;

  /**
   * A function name longer than this is cut before normalization (whose line-number list is a
   * regex too); real symbols, even heavily templated ones, are far shorter.
   */
  static final int MAX_FUNCTION_CHARS = 65_536;

  private static final List<String> CPP_REF_QUALIFIERS =
      List.of("const", "const&", "const &", "&&", "&");
  private static final List<String> CPP_TYPE_EXCEPTIONS =
      List.of("name omitted", "IPC::ParamTraits", " in ");
  private static final List<String> CPP_ARG_EXCEPTIONS = List.of("anonymous namespace", "operator");
  private static final List<String> RUST_TYPE_EXCEPTIONS = List.of(" as ");
  private static final Pattern FIXUP_SPACE = PythonRegex.compile(" (?=[\\*&,])");
  private static final Pattern FIXUP_COMMA = PythonRegex.compile(",(?! )");
  private static final Pattern FIXUP_HASH = PythonRegex.compile("::h[0-9a-fA-F]+$");
  private static final Pattern FIXUP_LAMBDA_NUMBERS = PythonRegex.compile("::\\$_\\d+::");

  /** Rust 1.34 panic symbols that lost their module path: (file, function) -> full name. */
  private static final Map<String, String> FILE_FUNCTION_TO_FUNCTION =
      Map.of(
          "src/liballoc/raw_vec.rs\0capacity_overflow", "alloc::raw_vec::capacity_overflow",
          "src/libcore/option.rs\0expect_failed", "core::option::expect_failed",
          "src/libcore/panicking.rs\0panic_bounds_check", "core::panicking::panic_bounds_check",
          "src/libcore/panicking.rs\0panic_fmt", "core::panicking::panic_fmt",
          "src/libcore/panicking.rs\0panic", "core::panicking::panic",
          "src/libcore/slice/mod.rs\0slice_index_order_fail", "core::slice::slice_index_order_fail",
          "src/libstd/panicking.rs\0begin_panic_fmt", "std::panicking::begin_panic_fmt",
          "src/libstd/panicking.rs\0continue_panic_fmt", "std::panicking::continue_panic_fmt",
          "src/libstd/panicking.rs\0rust_panic_with_hook", "std::panicking::rust_panic_with_hook");

  private final SignatureLists lists;

  NativeSignatureTool(SignatureLists lists) {
    this.lists = lists;
  }

  /** What {@link #generate} returns: the signature, notes for the user, and debug notes. */
  record Generated(String signature, List<String> notes, List<String> debugNotes) {}

  /** The functions {@link #FILE_FUNCTION_TO_FUNCTION} knows: only these are looked up. */
  private static final Set<String> FUNCTIONS_MISSING_MODULE =
      FILE_FUNCTION_TO_FUNCTION.keySet().stream()
          .map(k -> k.substring(k.indexOf('\0') + 1))
          .collect(Collectors.toUnmodifiableSet());

  /** Longer functions are none of those: no hash of the function's characters per frame. */
  private static final int LONGEST_FUNCTION_MISSING_MODULE =
      FUNCTIONS_MISSING_MODULE.stream().mapToInt(String::length).max().orElse(0);

  /** siggen's fix_missing_module for one frame's function (Rust 1.34 panic symbols). */
  static String fixMissingModule(String file, String function) {
    if (function == null
        || function.length() > LONGEST_FUNCTION_MISSING_MODULE
        || !FUNCTIONS_MISSING_MODULE.contains(function)) {
      return function; // no key to build (a string of the function's length per frame)
    }
    String path = FrameText.parseSourceFile(file);
    String fixed = FILE_FUNCTION_TO_FUNCTION.get(path + "\0" + function);
    return fixed != null ? fixed : function;
  }

  /**
   * The normalized frames of a thread, inlined callers first for each frame, at most
   * {@link #MAXIMUM_FRAMES_TO_CONSIDER}. Notes a frame cut to {@link #MAX_NORMALIZED_FRAME_CHARS}.
   */
  List<String> createFrameList(CrashThread thread, boolean lowerCaseModules, List<String> notes) {
    List<String> normalized = new ArrayList<>();
    if (thread == null) {
      return normalized;
    }
    // siggen walks the frames lazily (islice of a generator): malformed data fails the rule only
    // where the walk reaches it, in the order Python evaluates it
    RuleFailure notAnObject = thread.getFailure();
    if (notAnObject != null) {
      throw notAnObject;
    }
    if (thread.framesFailure != null) {
      throw thread.framesFailure;
    }
    for (CrashFrame frame : thread.frames()) {
      if (normalized.size() >= MAXIMUM_FRAMES_TO_CONSIDER) {
        return normalized;
      }
      if (frame.failure != null) {
        throw frame.failure;
      }
      for (CrashFrame inline : frame.inlines) {
        if (normalized.size() >= MAXIMUM_FRAMES_TO_CONSIDER) {
          return normalized;
        }
        if (inline.failure != null) {
          throw inline.failure;
        }
        add(normalized, notes, frame, inline, List.of(), null, lowerCaseModules);
      }
      if (normalized.size() >= MAXIMUM_FRAMES_TO_CONSIDER) {
        return normalized;
      }
      add(
          normalized,
          notes,
          frame,
          frame,
          frame.unloadedModules,
          frame.badUnloaded,
          lowerCaseModules);
    }
    return normalized;
  }

  /**
   * Fails as siggen's Python does on fields of the wrong JSON type, in its order: {@code
   * fix_missing_module} splits a truthy file and hashes (file, function); Windows lower-cases a
   * truthy module; {@code normalize_frame} then uses the first truthy of function (C++:
   * {@code endswith}, Rust: iterated), file and line, module ({@code strip}), unloaded modules.
   */
  private static void failOnWrongTypes(
      CrashFrame owner, CrashFrame source, Object badUnloaded, boolean lowerCaseModules) {
    Object file = source.badFile;
    if (file != null && PythonBuiltins.truthy(file)) {
      throw attributeError(file, "split");
    }
    Object function = source.badFunction;
    if (function instanceof List || function instanceof Map) {
      throw new RuleFailure(
          "TypeError", "unhashable type: '" + PythonBuiltins.typeName(function) + "'");
    }
    Object module = owner.badModule;
    boolean moduleTruthy = PythonBuiltins.truthy(module);
    if (lowerCaseModules && moduleTruthy) {
      throw attributeError(module, "lower");
    }
    if (PythonBuiltins.truthy(function)) {
      String path =
          source.file == null || source.file.isEmpty()
              ? null
              : FrameText.parseSourceFile(source.file);
      if (path != null && path.endsWith(".rs")) {
        throw new RuleFailure(
            "TypeError", "'" + PythonBuiltins.typeName(function) + "' object is not iterable");
      }
      throw attributeError(function, "endswith");
    }
    if (source.function != null && !source.function.isEmpty()) {
      return;
    }
    if (source.file != null && !source.file.isEmpty() && PythonBuiltins.truthy(source.line)) {
      return;
    }
    if (moduleTruthy) {
      throw attributeError(module, "strip");
    }
    if ((owner.module == null || owner.module.isEmpty()) && PythonBuiltins.truthy(badUnloaded)) {
      throw unloadedFailure(badUnloaded);
    }
  }

  /** {@code unloaded_modules[0].get("module")} on a truthy value that is not a list of objects. */
  private static RuleFailure unloadedFailure(Object unloaded) {
    if (unloaded instanceof Map) {
      // KeyError: 0, which siggen's handler turns into the missing result.note
      return new RuleFailure("KeyError", "0");
    }
    if (unloaded instanceof String) {
      return attributeError("", "get");
    }
    if (unloaded instanceof List<?> list) {
      return attributeError(list.get(0), "get");
    }
    return new RuleFailure(
        "TypeError", "'" + PythonBuiltins.typeName(unloaded) + "' object is not subscriptable");
  }

  private static RuleFailure attributeError(Object value, String attribute) {
    return new RuleFailure(
        "AttributeError",
        "'" + PythonBuiltins.typeName(value) + "' object has no attribute '" + attribute + "'");
  }

  private void add(
      List<String> out,
      List<String> notes,
      CrashFrame owner,
      CrashFrame source,
      List<String> unloaded,
      Object badUnloaded,
      boolean lowerCaseModules) {
    if (source.badFunction != null
        || source.badFile != null
        || owner.badModule != null
        || badUnloaded != null) {
      failOnWrongTypes(owner, source, badUnloaded, lowerCaseModules);
    }
    String module = owner.module;
    String function = source.function;
    String file = source.file;
    Object line = source.line;
    Object moduleOffset = owner.moduleOffset;
    Object offset = owner.offset;
    String fn = fixMissingModule(file, function);
    if (fn != null && fn.length() > MAX_FUNCTION_CHARS) {
      fn = fn.substring(0, MAX_FUNCTION_CHARS);
      notes.add(
          "CSignatureTool: function of frame "
              + out.size()
              + " cut to "
              + MAX_FUNCTION_CHARS
              + " characters");
    }
    String mod =
        lowerCaseModules && module != null && !module.isEmpty()
            ? module.toLowerCase(Locale.ROOT)
            : module;
    // the caller's kept forms hold for the function as it came (not fixed up, not cut)
    Object forms = fn == function ? source.functionForms : null;
    String frame = normalizeFrame(mod, fn, forms, file, line, moduleOffset, offset, unloaded);
    if (frame.length() > MAX_NORMALIZED_FRAME_CHARS) {
      frame = frame.substring(0, MAX_NORMALIZED_FRAME_CHARS);
      notes.add(
          "CSignatureTool: frame "
              + out.size()
              + " cut to "
              + MAX_NORMALIZED_FRAME_CHARS
              + " characters");
    }
    out.add(frame);
  }

  /**
   * The most meaningful one-string form of a frame: the normalized function, else file#line,
   * else the module, else the first unloaded module, else "@offset", else "".
   */
  String normalizeFrame(
      String module,
      String function,
      String file,
      Object line,
      Object moduleOffset,
      Object offset,
      List<String> unloadedModules) {
    return normalizeFrame(
        module, function, null, file, line, moduleOffset, offset, unloadedModules);
  }

  /**
   * As above; {@code forms}, if any, are where {@code function}'s forms are kept (a NameForms, or
   * the name's own NameForms.Slot), read and filled.
   */
  String normalizeFrame(
      String module,
      String function,
      Object forms,
      String file,
      Object line,
      Object moduleOffset,
      Object offset,
      List<String> unloadedModules) {
    if (function != null && !function.isEmpty()) {
      String path = file == null || file.isEmpty() ? null : FrameText.parseSourceFile(file);
      boolean rust = path != null && path.endsWith(".rs");
      if (forms != null) {
        String kept = NameForms.normalized(forms, lists, rust);
        if (kept != null) {
          return kept;
        }
      }
      return normalized.get().of(this, function, forms, rust, line);
    }
    if (file != null && !file.isEmpty() && PythonBuiltins.truthy(line)) {
      String filename = PythonBuiltins.rstrip(file, "/\\");
      int cut =
          filename.indexOf('\\') >= 0 ? filename.lastIndexOf('\\') : filename.lastIndexOf('/');
      return filename.substring(cut + 1) + "#" + PythonBuiltins.str(line);
    }
    if (module != null && !module.isEmpty()) {
      return PythonBuiltins.strip(module, "[]");
    }
    if (unloadedModules != null && !unloadedModules.isEmpty()) {
      return "(unloaded " + PythonBuiltins.str(unloadedModules.get(0)) + ")";
    }
    if (PythonBuiltins.truthy(offset)) {
      return "@" + PythonBuiltins.str(FrameText.stripLeadingZeros(offset));
    }
    return "";
  }

  String normalizeRustFunction(String function, Object line) {
    return rustWithLine(rustBeforeLine(function), line);
  }

  /** The Rust normalization up to the line-number step, which alone reads the line. */
  private static String rustBeforeLine(String function) {
    String f = FrameText.dropPrefixAndReturnType(function);
    f = FrameText.collapse(f, '<', '>', "<T>", RUST_TYPE_EXCEPTIONS);
    return FrameText.collapse(f, '(', ')', "", null);
  }

  /** The Rust normalization from the line-number step on. */
  private String rustWithLine(String f, Object line) {
    return rustAfterLine(withLineNumber(f, line));
  }

  /** The Rust normalization after the line-number step. */
  private static String rustAfterLine(String f) {
    f = fixups(f);
    return f.contains("::h") ? FIXUP_HASH.matcher(f).replaceAll("") : f;
  }

  String normalizeCppFunction(String function, Object line) {
    return cppWithLine(cppBeforeLine(function), line);
  }

  /** The C++ normalization from the line-number step on. */
  private String cppWithLine(String f, Object line) {
    return fixups(withLineNumber(f, line));
  }

  /**
   * FIXUP_SPACE, then FIXUP_COMMA, each run only where it would change something (a space
   * before '*', '&' or ',', a comma without a space after it): most normalized names have
   * neither once their arguments are collapsed, and a matcher per frame was most of the cost.
   */
  private static String fixups(String f) {
    boolean space = false;
    boolean comma = false;
    for (int i = 0; i < f.length(); i++) {
      char c = f.charAt(i);
      char next = i + 1 < f.length() ? f.charAt(i + 1) : 0;
      if (c == ' ' && (next == '*' || next == '&' || next == ',')) {
        space = true;
      } else if (c == ',' && next != ' ') {
        comma = true;
      }
    }
    if (space) {
      f = FIXUP_SPACE.matcher(f).replaceAll("");
      comma = true; // removing a space may leave a comma without one after it
    }
    return comma ? FIXUP_COMMA.matcher(f).replaceAll(", ") : f;
  }

  /** The C++ normalization up to the line-number step, which alone reads the line. */
  private static String cppBeforeLine(String function) {
    String f = function;
    char last = f.isEmpty() ? 0 : f.charAt(f.length() - 1);
    if (last == 't' || last == '&') { // each qualifier ends so: else none is stripped
      for (String ref : CPP_REF_QUALIFIERS) {
        if (f.endsWith(ref)) {
          f = PythonBuiltins.strip(f.substring(0, f.length() - ref.length()));
        }
      }
    }
    if (!f.contains("::operator")) {
      f = FrameText.dropPrefixAndReturnType(f);
    }
    f = f.replace("`anonymous namespace'", "(anonymous namespace)");
    if (f.contains("::$_")) {
      f = FIXUP_LAMBDA_NUMBERS.matcher(f).replaceAll(Matcher.quoteReplacement("::$::"));
    }
    f = FrameText.collapse(f, '<', '>', "<T>", CPP_TYPE_EXCEPTIONS);
    f = FrameText.collapse(f, '(', ')', "", CPP_ARG_EXCEPTIONS);
    if (f.contains("clone .cold")) {
      f = FrameText.collapse(f, '[', ']', "", null);
    }
    return f;
  }

  // per thread (the tool is shared by the stream threads): stacks repeat their functions, and a
  // function's normalized form is the same every time when no line number is appended to it
  private final ThreadLocal<NormalizedFunctions> normalized =
      ThreadLocal.withInitial(NormalizedFunctions::new);

  /** Functions longer than this are normalized each time, not remembered. */
  static final int MEMO_FUNCTION_CHARS = 1024;

  /** Entries per thread and language; the memo is cleared when full. */
  static final int MEMO_ENTRIES = 4096;

  /**
   * Normalized functions by function, one map per language: only those whose normalized form
   * does not match the line-number list (which appends the frame's line), so that a remembered
   * form is the one normalization would make for any line.
   */
  private static final class NormalizedFunctions {
    private final Map<String, String> cpp = new HashMap<>();
    private final Map<String, String> rust = new HashMap<>();

    String of(
        NativeSignatureTool tool, String function, Object forms, boolean isRust, Object line) {
      Map<String, String> memo = isRust ? rust : cpp;
      // a name whose forms the caller keeps is remembered there, not here
      boolean remember = forms == null && function.length() <= MEMO_FUNCTION_CHARS;
      String known = remember ? memo.get(function) : null;
      if (known != null) {
        return known;
      }
      String before = isRust ? rustBeforeLine(function) : cppBeforeLine(function);
      // the line-number list is matched once: it decides both the line and the memo
      boolean withLine = tool.matches(LINE_NUMBERS, tool.lists.lineNumbers, before);
      String numbered = withLine ? before + ":" + PythonBuiltins.str(line) : before;
      String done = isRust ? rustAfterLine(numbered) : fixups(numbered);
      if (forms != null && !withLine) {
        NameForms.keep(forms, tool.lists, isRust, done);
      } else if (remember && !withLine) {
        if (memo.size() >= MEMO_ENTRIES) {
          memo.clear();
        }
        memo.put(function, done);
      }
      return done;
    }
  }

  private static final int LINE_NUMBERS = 0;
  private static final int IRRELEVANT = 1;
  private static final int PREFIX = 2;

  // per thread, one matcher per list, reset for each frame: a matcher of a joined list allocates
  // arrays sized by the list's groups, per frame of every event
  private final ThreadLocal<Matcher[]> matchers = ThreadLocal.withInitial(() -> new Matcher[3]);

  /** {@code list.matcher(text).lookingAt()} with the thread's matcher for that list. */
  private boolean matches(int which, Pattern list, String text) {
    Matcher[] mine = matchers.get();
    Matcher m = mine[which];
    if (m == null) {
      m = list.matcher(text);
      mine[which] = m;
    } else {
      m.reset(text);
    }
    return m.lookingAt();
  }

  private String withLineNumber(String function, Object line) {
    if (matches(LINE_NUMBERS, lists.lineNumbers, function)) {
      return function + ":" + PythonBuiltins.str(line);
    }
    return function;
  }

  private static boolean isModuleOnly(String frame) {
    if (frame.startsWith("(unloaded")) {
      return false;
    }
    String lower = frame.toLowerCase(Locale.ROOT);
    return lower.endsWith(".dll")
        || lower.endsWith(".so")
        || frame.equals("XUL")
        || frame.equals("<name omitted>")
        || frame.startsWith("<unknown in");
  }

  /**
   * siggen's CSignatureTool.generate: start at the first sentinel if any, skip empty and
   * irrelevant frames and repeats of a module-only frame, keep prefix frames, stop after the
   * first frame that is not a prefix. {@code crashedThread} null means none was identified.
   */
  Generated generate(List<String> frames, BigInteger crashedThread) {
    return generate(frames, crashedThread, true);
  }

  /** As above; without {@code debugging}, no debug lines are built (the list is empty). */
  Generated generate(List<String> frames, BigInteger crashedThread, boolean debugging) {
    List<String> notes = new ArrayList<>();
    List<String> debug = debugging ? new ArrayList<>() : null;
    if (debugging) {
      debug.add(lists.describe());
    }

    List<String> source = frames;
    int minIndex = -1;
    for (String sentinel : lists.sentinels) {
      int at = source.indexOf(sentinel);
      if (at >= 0 && (minIndex < 0 || at < minIndex)) {
        minIndex = at;
      }
    }
    if (minIndex >= 0) {
      if (debugging) {
        debug.add("sentinel; starting at \"" + source.get(minIndex) + "\" index " + minIndex);
      }
      source = source.subList(minIndex, source.size());
    }

    List<String> kept = new ArrayList<>();
    for (String frame : source) {
      if (frame.isEmpty()) {
        if (debugging) {
          debug.add("empty string; ignoring: \"\"");
        }
        continue;
      }
      if (matches(IRRELEVANT, lists.irrelevant, frame)) {
        if (debugging) {
          debug.add("irrelevant; ignoring: \"" + frame + "\"");
        }
        continue;
      }
      if (isModuleOnly(frame) && !kept.isEmpty() && frame.equals(kept.get(kept.size() - 1))) {
        continue;
      }
      kept.add(frame);
      if (!matches(PREFIX, lists.prefix, frame)) {
        if (debugging) {
          debug.add("not a prefix; stop: \"" + frame + "\"");
        }
        break;
      }
      if (debugging) {
        debug.add("prefix; continue iterating: \"" + frame + "\"");
      }
    }

    String signature = String.join(" | ", kept);
    if (signature.isEmpty()) {
      if (crashedThread == null) {
        notes.add("CSignatureTool: no crashing thread identified");
        signature = "EMPTY: no crashing thread identified";
      } else {
        notes.add("CSignatureTool: no frame data for crashing thread (" + crashedThread + ")");
        signature = source.isEmpty() ? "EMPTY: no frame data available" : source.get(0);
      }
    }
    return new Generated(signature, notes, debugging ? debug : List.of());
  }
}
