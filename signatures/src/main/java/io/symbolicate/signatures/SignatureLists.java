package io.symbolicate.signatures;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The frame lists that steer native signature generation, in the layout and syntax of siggen's
 * {@code siglists/} folder: one {@code <name>.txt} per list, one Python regular expression per
 * line, blank lines and lines starting with '#' skipped, every line checked to compile. The
 * regex lists are joined with '|' and matched at the start of a normalized frame (Python's
 * re.match), so, as in siggen, an empty regex list matches every frame. Sentinels are exact
 * frame strings. Two optional files of ours steer the JavaScript rule; a directory without them
 * uses our defaults for them. Immutable and thread-safe.
 */
public final class SignatureLists {
  public static final String IRRELEVANT = "irrelevant_signature_re";
  public static final String PREFIX = "prefix_signature_re";
  public static final String SENTINELS = "signature_sentinels";
  public static final String LINE_NUMBERS = "signatures_with_line_numbers_re";

  /** Read and checked for the layout's sake; siggen's code does not use it, nor do we. */
  public static final String TRIM_DLL = "trim_dll_signature_re";

  /** Ours: files (URLs, paths) of JavaScript frames that are not the application's code. */
  public static final String JS_NOT_IN_APP = "js_not_in_app_re";

  /** Ours: normalized JavaScript function names that never make a signature. */
  public static final String JS_IRRELEVANT = "js_irrelevant_function_re";

  /** A list file larger than this is refused (Socorro's largest is under 8 KiB). */
  public static final int MAX_LIST_FILE_BYTES = 1 << 20;

  /** More non-comment lines than this in one file are refused. */
  public static final int MAX_LIST_LINES = 20_000;

  private static final List<String> REQUIRED = List.of(IRRELEVANT, PREFIX, SENTINELS, LINE_NUMBERS);
  private static final List<String> OPTIONAL = List.of(TRIM_DLL, JS_NOT_IN_APP, JS_IRRELEVANT);
  private static final String RESOURCE_DIR = "siglists/";
  private static final Logger LOG = LoggerFactory.getLogger(SignatureLists.class);

  private static volatile SignatureLists defaults;

  final String source;
  final Pattern irrelevant;
  final Pattern prefix;
  final Pattern lineNumbers;
  final List<String> sentinels;
  final Pattern jsNotInApp;
  final Pattern jsIrrelevant;
  private final Map<String, List<String>> lines;

  private SignatureLists(String source, Map<String, List<String>> lines) {
    this.source = source;
    this.lines = lines;
    this.irrelevant = joined(lines.get(IRRELEVANT));
    this.prefix = joined(lines.get(PREFIX));
    this.lineNumbers = joined(lines.get(LINE_NUMBERS));
    this.sentinels = List.copyOf(lines.get(SENTINELS));
    this.jsNotInApp = joined(lines.get(JS_NOT_IN_APP));
    this.jsIrrelevant = joined(lines.get(JS_IRRELEVANT));
  }

  /** The small generic lists shipped in this module (see docs/signatures.md). */
  public static SignatureLists defaults() {
    SignatureLists d = defaults;
    if (d == null) {
      synchronized (SignatureLists.class) {
        d = defaults;
        if (d == null) {
          try {
            d = new SignatureLists(null, readDefaults());
          } catch (SignatureListException e) {
            throw new IllegalStateException("the module's own signature lists are broken", e);
          }
          defaults = d;
        }
      }
    }
    return d;
  }

  /**
   * Reads a directory in siggen's siglists layout. The four lists siggen reads are required;
   * {@code trim_dll_signature_re.txt} and our two JavaScript lists are optional (the JavaScript
   * ones fall back to our defaults).
   */
  public static SignatureLists load(Path dir) throws SignatureListException {
    if (!Files.isDirectory(dir)) {
      throw new SignatureListException("signature list directory not found: " + dir);
    }
    Map<String, List<String>> lines = new LinkedHashMap<>();
    for (String name : REQUIRED) {
      lines.put(name, readFile(dir, name, true));
    }
    Map<String, List<String>> fallback = null;
    for (String name : OPTIONAL) {
      List<String> read = readFile(dir, name, false);
      if (read == null) {
        if (fallback == null) {
          fallback = defaults().lines;
        }
        read = fallback.get(name);
      }
      lines.put(name, read);
    }
    LOG.debug("signature lists read from {}", dir);
    return new SignatureLists(dir.toString(), lines);
  }

  /**
   * Lists given as lines (each a Python regex, or a sentinel string), for tests and callers that
   * keep lists elsewhere; a list not given is taken from the defaults.
   */
  public static SignatureLists of(Map<String, List<String>> given) throws SignatureListException {
    Map<String, List<String>> lines = new LinkedHashMap<>();
    for (String name : concat(REQUIRED, OPTIONAL)) {
      List<String> l = given.get(name);
      if (l == null) {
        l = defaults().lines.get(name);
      } else {
        for (int i = 0; i < l.size(); i++) {
          check(l.get(i), name, i + 1);
        }
      }
      lines.put(name, List.copyOf(l));
    }
    return new SignatureLists(null, lines);
  }

  /** "using included signature lists" or "using signature lists from DIR", as siggen logs. */
  String describe() {
    return source == null
        ? "using included signature lists"
        : "using signature lists from " + source;
  }

  /** The lines of one list (comments and blanks dropped). */
  public List<String> lines(String name) {
    List<String> l = lines.get(name);
    if (l == null) {
      throw new IllegalArgumentException("no such list: " + name);
    }
    return l;
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static Pattern joined(List<String> regexes) {
    StringBuilder sb = new StringBuilder();
    for (String r : regexes) {
      if (sb.length() > 0) {
        sb.append('|');
      }
      sb.append(PythonRegex.translate(r));
    }
    return Pattern.compile(sb.toString(), PythonRegex.FLAGS);
  }

  private static Map<String, List<String>> readDefaults() throws SignatureListException {
    Map<String, List<String>> lines = new LinkedHashMap<>();
    for (String name : concat(REQUIRED, OPTIONAL)) {
      String resource = RESOURCE_DIR + name + ".txt";
      try (InputStream in = SignatureLists.class.getResourceAsStream(resource)) {
        if (in == null) {
          throw new SignatureListException("missing resource " + resource);
        }
        lines.put(name, parse(in.readNBytes(MAX_LIST_FILE_BYTES + 1), "resource " + resource));
      } catch (IOException e) {
        throw new SignatureListException("cannot read resource " + resource, e);
      }
    }
    return lines;
  }

  private static List<String> readFile(Path dir, String name, boolean required)
      throws SignatureListException {
    Path file = dir.resolve(name + ".txt");
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes(MAX_LIST_FILE_BYTES + 1);
    } catch (NoSuchFileException e) {
      if (required) {
        throw new SignatureListException("signature list file missing: " + file);
      }
      return null;
    } catch (IOException e) {
      throw new SignatureListException("cannot read " + file + ": " + e.getMessage(), e);
    }
    return parse(bytes, file.toString());
  }

  /** siggen's get_signature_list_content: strict UTF-8, stripped lines, '#' comments. */
  static List<String> parse(byte[] bytes, String where) throws SignatureListException {
    if (bytes.length > MAX_LIST_FILE_BYTES) {
      throw new SignatureListException(where + ": larger than " + MAX_LIST_FILE_BYTES + " bytes");
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
    } catch (CharacterCodingException e) {
      throw new SignatureListException(where + ": not valid UTF-8", e);
    }
    List<String> out = new ArrayList<>();
    int lineNo = 0;
    int start = 0;
    while (start <= text.length()) {
      int nl = text.indexOf('\n', start);
      int end = nl < 0 ? text.length() : nl;
      lineNo++;
      String line = PythonBuiltins.strip(text.substring(start, end));
      if (!line.isEmpty() && !line.startsWith("#")) {
        if (out.size() >= MAX_LIST_LINES) {
          throw new SignatureListException(where + ": more than " + MAX_LIST_LINES + " lines");
        }
        check(line, where, lineNo);
        out.add(line);
      }
      if (nl < 0) {
        break;
      }
      start = nl + 1;
    }
    return out;
  }

  private static void check(String line, String where, int lineNo) throws SignatureListException {
    try {
      PythonRegex.compile(line);
    } catch (PatternSyntaxException e) {
      throw new SignatureListException(
          "Regex error: "
              + e.getDescription()
              + " in "
              + where
              + " at line "
              + lineNo
              + ": "
              + line,
          e);
    }
  }
}
