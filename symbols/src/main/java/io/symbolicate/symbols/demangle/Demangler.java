package io.symbolicate.symbols.demangle;

/**
 * Demangles C++ (Itanium ABI, {@code _Z...}) and Rust (legacy {@code _ZN...17h<hash>E} and v0
 * {@code _R...}) symbol names as binutils' {@code c++filt} does; see docs/native.md,
 * "Demangling".
 *
 * <p>Three forms, each the one a peer prints:
 *
 * <ul>
 *   <li>{@link #demangle(String)}: the short form of Breakpad's {@code dump_syms} and Sentry's
 *       Symbolicator ({@code c++filt -i}): {@code std::string} for {@code Ss}, Rust without its
 *       hash and crate disambiguators;
 *   <li>{@link #demangleNameOnly(String)}: the same without parameters and return type ({@code
 *       c++filt -i -p}; Symbolicator's {@code function} of a frame);
 *   <li>{@link #demangle(String, Style)} with {@link Style#VERBOSE}: exactly {@code c++filt}
 *       (spelled-out {@code std::basic_string<...>}, Rust hashes).
 * </ul>
 *
 * <p>A name that is not mangled, or is mangled wrongly, gives {@code null}; nothing throws. The
 * work is one pass over the name with bounded recursion, substitutions and output.
 */
public final class Demangler {
  /** How much to print. */
  public enum Style {
    /** {@code c++filt -i}: Breakpad's and Symbolicator's form. */
    SHORT(false, true),
    /** {@code c++filt -i -p}: no parameters, no return type, no clone suffixes. */
    NAME_ONLY(false, false),
    /** {@code c++filt}: verbose standard abbreviations and Rust hashes. */
    VERBOSE(true, true),
    /** {@code c++filt -p}. */
    VERBOSE_NAME_ONLY(true, false);

    final boolean verbose;
    final boolean params;

    Style(boolean verbose, boolean params) {
      this.verbose = verbose;
      this.params = params;
    }
  }

  /** Longest input looked at: longer names are not demangled. */
  public static final int MAX_INPUT = 1 << 16;

  private Demangler() {}

  /** The short form ({@link Style#SHORT}), or null when {@code symbol} is not a mangled name. */
  public static String demangle(String symbol) {
    return demangle(symbol, Style.SHORT);
  }

  /** The name without parameters ({@link Style#NAME_ONLY}), or null. */
  public static String demangleNameOnly(String symbol) {
    return demangle(symbol, Style.NAME_ONLY);
  }

  /** The demangled name, or {@code symbol} itself when it is not a mangled name. */
  public static String demangleOrSelf(String symbol) {
    String d = demangle(symbol, Style.SHORT);
    return d == null ? symbol : d;
  }

  /** The demangled name in {@code style}, or null when {@code symbol} is not a mangled name. */
  public static String demangle(String symbol, Style style) {
    if (symbol == null || symbol.length() < 3 || symbol.length() > MAX_INPUT) {
      return null;
    }
    if (symbol.charAt(0) != '_') {
      return null;
    }
    try {
      char c = symbol.charAt(1);
      if (c == 'R' || (c == 'Z' && symbol.charAt(2) == 'N')) {
        String rust = RustDemangler.demangle(symbol, style.verbose);
        if (rust != null) {
          return rust;
        }
      }
      if (c == 'Z') {
        return itanium(symbol, style);
      }
      if (symbol.startsWith("_GLOBAL_") && symbol.length() >= 11) {
        return globalCtorDtor(symbol, style);
      }
      return null;
    } catch (RuntimeException | StackOverflowError e) {
      // ItaniumParser.FAIL, and the index checks of a hostile name: not a mangled name
      return null;
    }
  }

  private static String itanium(String symbol, Style style) {
    ItaniumParser parser = new ItaniumParser(symbol, 2, style.verbose);
    Node n = parser.encoding(style.params, true);
    int pos = parser.position();
    if (style.params) {
      // clone suffixes: .cold, .isra.0, .constprop.1, .part.2.lto_priv.0, ...
      while (pos < symbol.length()
          && symbol.charAt(pos) == '.'
          && pos + 1 < symbol.length()
          && isCloneStart(symbol.charAt(pos + 1))) {
        int end = pos + 2;
        while (end < symbol.length() && isCloneStart(symbol.charAt(end))) {
          end++;
        }
        while (end + 1 < symbol.length()
            && symbol.charAt(end) == '.'
            && isDigit(symbol.charAt(end + 1))) {
          end += 2;
          while (end < symbol.length() && isDigit(symbol.charAt(end))) {
            end++;
          }
        }
        n = new Nodes.Suffixed(n, " [clone " + symbol.substring(pos, end) + "]");
        pos = end;
      }
      if (pos != symbol.length()) {
        return null;
      }
    }
    Printer p = new Printer(symbol.length());
    n.print(p);
    return p.toString();
  }

  private static boolean isCloneStart(char c) {
    return (c >= 'a' && c <= 'z') || c == '_' || isDigit(c);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** {@code _GLOBAL_[._$][ID]_name}: global constructors and destructors keyed to a name. */
  private static String globalCtorDtor(String symbol, Style style) {
    char sep = symbol.charAt(8);
    char kind = symbol.charAt(9);
    if ((sep != '.' && sep != '_' && sep != '$')
        || (kind != 'I' && kind != 'D')
        || symbol.charAt(10) != '_') {
      return null;
    }
    String prefix = kind == 'I' ? "global constructors keyed to " : "global destructors keyed to ";
    String rest = symbol.substring(11);
    if (rest.startsWith("_Z")) {
      ItaniumParser parser = new ItaniumParser(rest, 2, style.verbose);
      Node n = parser.encoding(true, false);
      Printer p = new Printer();
      n.print(p);
      if (parser.position() != rest.length()) {
        return null;
      }
      return prefix + p;
    }
    return prefix + rest;
  }
}
