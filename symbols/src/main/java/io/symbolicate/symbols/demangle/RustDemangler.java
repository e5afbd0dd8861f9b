package io.symbolicate.symbols.demangle;

/**
 * Rust symbol names: legacy ({@code _ZN...17h<16 hex>E}, Itanium-shaped with {@code $..$}
 * escapes) and v0 ({@code _R...}), printed as binutils' {@code c++filt} (libiberty's
 * rust-demangle) does. Not verbose (Symbolicator's and rustc-demangle's {@code {:#}} form), the
 * legacy hash, v0 crate disambiguators and v0 integer constants' type suffixes are left out.
 */
final class RustDemangler {
  private static final int MAX_RECURSION = 256;

  private final String s;
  private final int len; // end of the part that is demangled
  private int next;
  private final boolean verbose;
  private boolean skipping;
  private int boundLifetimes;
  private int recursion;
  private final StringBuilder out = new StringBuilder(64);

  private RustDemangler(String s, int start, int len, boolean verbose) {
    this.s = s;
    this.next = start;
    this.len = len;
    this.verbose = verbose;
  }

  /** The demangled name, or null when {@code symbol} is no Rust name. */
  static String demangle(String symbol, boolean verbose) {
    int start;
    boolean legacy;
    if (symbol.startsWith("_R")) {
      start = 2;
      legacy = false;
    } else if (symbol.startsWith("_ZN")) {
      start = 3;
      legacy = true;
    } else {
      return null;
    }
    if (!legacy && (start >= symbol.length() || !isUpper(symbol.charAt(start)))) {
      return null;
    }
    int end = start;
    for (; end < symbol.length(); end++) {
      char c = symbol.charAt(end);
      if (!legacy && c == '.') {
        break;
      }
      if (c == '_' || isAlnum(c)) {
        continue;
      }
      if (legacy && (c == '$' || c == '.' || c == ':' || c == '@')) {
        continue;
      }
      return null;
    }
    if (legacy) {
      return legacy(symbol, start, end, verbose);
    }
    RustDemangler d = new RustDemangler(symbol, start, end, verbose);
    try {
      d.path(true);
      if (d.next < d.len) {
        d.skipping = true;
        d.path(false);
      }
      if (d.next != d.len) {
        return null;
      }
    } catch (Fail | IllegalArgumentException f) {
      return null;
    }
    return d.out.toString();
  }

  private static final class Fail extends RuntimeException {
    Fail() {
      super(null, null, false, false);
    }
  }

  private static final Fail FAIL = new Fail();

  // ---- legacy ----

  private static String legacy(String s, int start, int end, boolean verbose) {
    // the name ends with E, possibly followed by a .suffix that is left out
    boolean dotSuffix = true;
    while (end > start && !(dotSuffix && s.charAt(end - 1) == 'E')) {
      dotSuffix = s.charAt(end - 1) == '.';
      end--;
    }
    if (!(end > start && s.charAt(end - 1) == 'E')) {
      return null;
    }
    end--;
    if (!(end - start > 19 && s.startsWith("17h", end - 19))) {
      return null;
    }
    int pos = start;
    int lastStart = -1;
    int lastLen = 0;
    while (pos < end) {
      char c = s.charAt(pos);
      if (!isDigit(c)) {
        return null;
      }
      long n = c - '0';
      pos++;
      if (c != '0') {
        while (pos < end && isDigit(s.charAt(pos))) {
          n = n * 10 + (s.charAt(pos++) - '0');
          if (n > Integer.MAX_VALUE) {
            return null;
          }
        }
      }
      if (n == 0 || pos + n > end) {
        return null;
      }
      lastStart = pos;
      lastLen = (int) n;
      pos += (int) n;
    }
    if (!isLegacyHash(s, lastStart, lastLen)) {
      return null;
    }
    int printEnd = verbose ? end : end - 19;
    StringBuilder out = new StringBuilder(end - start);
    pos = start;
    boolean first = true;
    while (pos < printEnd) {
      int n = 0;
      char c = s.charAt(pos++);
      n = c - '0';
      if (c != '0') {
        while (isDigit(s.charAt(pos))) {
          n = n * 10 + (s.charAt(pos++) - '0');
        }
      }
      if (!first) {
        out.append("::");
      }
      first = false;
      legacyIdent(out, s, pos, pos + n);
      pos += n;
    }
    return out.toString();
  }

  private static boolean isLegacyHash(String s, int start, int n) {
    if (n != 17 || s.charAt(start) != 'h') {
      return false;
    }
    int seen = 0;
    for (int i = 1; i < 17; i++) {
      int d = lowerHex(s.charAt(start + i));
      if (d < 0) {
        return false;
      }
      seen |= 1 << d;
    }
    return Integer.bitCount(seen) >= 5;
  }

  private static void legacyIdent(StringBuilder out, String s, int pos, int end) {
    if (end - pos >= 2 && s.charAt(pos) == '_' && s.charAt(pos + 1) == '$') {
      pos++;
    }
    while (pos < end) {
      char c = s.charAt(pos);
      if (c == '$') {
        int[] escLen = new int[1];
        char u = legacyEscape(s, pos, end, escLen);
        if (u != 0) {
          out.append(u);
          pos += escLen[0];
        } else {
          out.append(s, pos, end);
          return;
        }
      } else if (c == '.') {
        if (pos + 1 < end && s.charAt(pos + 1) == '.') {
          out.append("::");
          pos += 2;
        } else {
          out.append('.');
          pos++;
        }
      } else {
        int stop = pos;
        while (stop < end && s.charAt(stop) != '$' && s.charAt(stop) != '.') {
          stop++;
        }
        out.append(s, pos, stop);
        pos = stop;
      }
    }
  }

  /** {@code $C$}, {@code $SP$}, ..., {@code $u7e$}: the character, or 0 when not an escape. */
  private static char legacyEscape(String s, int pos, int end, int[] escLen) {
    int len = end - pos;
    if (len < 3) {
      return 0;
    }
    int e = pos + 1;
    len--;
    char c = 0;
    int el;
    if (s.charAt(e) == 'C') {
      el = 1;
      c = ',';
    } else if (len > 2) {
      el = 2;
      String two = s.substring(e, e + 2);
      switch (two) {
        case "SP":
          c = '@';
          break;
        case "BP":
          c = '*';
          break;
        case "RF":
          c = '&';
          break;
        case "LT":
          c = '<';
          break;
        case "GT":
          c = '>';
          break;
        case "LP":
          c = '(';
          break;
        case "RP":
          c = ')';
          break;
        default:
          if (s.charAt(e) == 'u' && len > 3) {
            el = 3;
            int hi = lowerHex(s.charAt(e + 1));
            int lo = lowerHex(s.charAt(e + 2));
            if (hi < 0 || lo < 0 || hi > 7) {
              return 0;
            }
            c = (char) ((hi << 4) | lo);
            if (c < 0x20) {
              return 0;
            }
          }
      }
    } else {
      return 0;
    }
    if (c == 0 || len <= el || s.charAt(e + el) != '$') {
      return 0;
    }
    escLen[0] = 2 + el;
    return c;
  }

  // ---- v0 ----

  private void print(String text) {
    if (!skipping) {
      if (out.length() + text.length() > Printer.MAX_OUTPUT) {
        throw FAIL;
      }
      out.append(text);
    }
  }

  private void print(char c) {
    if (!skipping) {
      if (out.length() >= Printer.MAX_OUTPUT) {
        throw FAIL;
      }
      out.append(c);
    }
  }

  private char peek() {
    return next < len ? s.charAt(next) : '\0';
  }

  private boolean eat(char c) {
    if (peek() == c) {
      next++;
      return true;
    }
    return false;
  }

  private char nextChar() {
    if (next >= len) {
      throw FAIL;
    }
    return s.charAt(next++);
  }

  private void enter() {
    if (++recursion > MAX_RECURSION) {
      throw FAIL;
    }
  }

  /** {@code <base-62-number>}: {@code _} is 0, else digits then {@code _}, value + 1. */
  private long integer62() {
    if (eat('_')) {
      return 0;
    }
    long x = 0;
    while (!eat('_')) {
      char c = nextChar();
      int d;
      if (isDigit(c)) {
        d = c - '0';
      } else if (c >= 'a' && c <= 'z') {
        d = 10 + c - 'a';
      } else if (c >= 'A' && c <= 'Z') {
        d = 36 + c - 'A';
      } else {
        throw FAIL;
      }
      // wraps as libiberty's uint64_t does; back references are range-checked by their users
      x = x * 62 + d;
    }
    return x + 1;
  }

  private long optInteger62(char tag) {
    if (!eat(tag)) {
      return 0;
    }
    return integer62() + 1;
  }

  private long disambiguator() {
    return optInteger62('s');
  }

  /** An identifier: start and length in {@code s}, and whether it is punycode. */
  private int identStart;

  private int identLen;
  private boolean identPunycode;

  private void ident() {
    identPunycode = eat('u');
    char c = nextChar();
    if (!isDigit(c)) {
      throw FAIL;
    }
    long n = c - '0';
    if (c != '0') {
      while (isDigit(peek())) {
        n = n * 10 + (s.charAt(next++) - '0');
        if (n > Integer.MAX_VALUE) {
          throw FAIL;
        }
      }
    }
    eat('_');
    if (next + n > len) {
      throw FAIL;
    }
    identStart = next;
    identLen = (int) n;
    next += (int) n;
  }

  private void printIdent(int start, int n, boolean punycode) {
    if (skipping) {
      return;
    }
    if (punycode) {
      print(Punycode.decode(s, start, n));
      return;
    }
    print(s.substring(start, start + n));
  }

  private void path(boolean inValue) {
    enter();
    try {
      path0(inValue);
    } finally {
      recursion--;
    }
  }

  private void path0(boolean inValue) {
    char tag = nextChar();
    switch (tag) {
      case 'C':
        {
          long dis = disambiguator();
          ident();
          printIdent(identStart, identLen, identPunycode);
          if (verbose) {
            print('[');
            print(Long.toHexString(dis)); // unsigned, as libiberty's %llx
            print(']');
          }
          break;
        }
      case 'N':
        {
          char ns = nextChar();
          if (!isLower(ns) && !isUpper(ns)) {
            throw FAIL;
          }
          path(inValue);
          long dis = disambiguator();
          ident();
          int is = identStart;
          int il = identLen;
          boolean ip = identPunycode;
          if (isUpper(ns)) {
            print("::{");
            if (ns == 'C') {
              print("closure");
            } else if (ns == 'S') {
              print("shim");
            } else {
              print(ns);
            }
            if (il > 0) {
              print(':');
              printIdent(is, il, ip);
            }
            print('#');
            print(Long.toString(dis));
            print('}');
          } else if (il > 0) {
            print("::");
            printIdent(is, il, ip);
          }
          break;
        }
      case 'M':
      case 'X':
      case 'Y':
        {
          if (tag != 'Y') {
            disambiguator();
            boolean was = skipping;
            skipping = true;
            path(inValue);
            skipping = was;
          }
          print('<');
          type();
          if (tag != 'M') {
            print(" as ");
            path(false);
          }
          print('>');
          break;
        }
      case 'I':
        {
          path(inValue);
          if (inValue) {
            print("::");
          }
          print('<');
          for (int i = 0; !eat('E'); i++) {
            if (i > 0) {
              print(", ");
            }
            genericArg();
          }
          print('>');
          break;
        }
      case 'B':
        {
          int at = next - 1;
          long backref = integer62();
          if (backref < 0 || backref >= at - startOffset()) {
            throw FAIL;
          }
          if (!skipping) {
            int saved = next;
            next = (int) backref + startOffset();
            path(inValue);
            next = saved;
          }
          break;
        }
      default:
        throw FAIL;
    }
  }

  /** Backrefs count from the character after {@code _R}. */
  private int startOffset() {
    return 2;
  }

  private void genericArg() {
    if (eat('L')) {
      lifetime(integer62());
    } else if (eat('K')) {
      constant();
    } else {
      type();
    }
  }

  private void lifetime(long lt) {
    print('\'');
    if (lt == 0) {
      print('_');
      return;
    }
    // as libiberty: an index past the bound lifetimes wraps (unsigned), it is not refused
    long depth = boundLifetimes - lt;
    if (Long.compareUnsigned(depth, 26) < 0) {
      print((char) ('a' + depth));
    } else {
      print('_');
      print(Long.toUnsignedString(depth));
    }
  }

  private static String basicType(char tag) {
    switch (tag) {
      case 'b':
        return "bool";
      case 'c':
        return "char";
      case 'e':
        return "str";
      case 'u':
        return "()";
      case 'a':
        return "i8";
      case 's':
        return "i16";
      case 'l':
        return "i32";
      case 'x':
        return "i64";
      case 'n':
        return "i128";
      case 'i':
        return "isize";
      case 'h':
        return "u8";
      case 't':
        return "u16";
      case 'm':
        return "u32";
      case 'y':
        return "u64";
      case 'o':
        return "u128";
      case 'j':
        return "usize";
      case 'f':
        return "f32";
      case 'd':
        return "f64";
      case 'z':
        return "!";
      case 'p':
        return "_";
      case 'v':
        return "...";
      default:
        return null;
    }
  }

  private void type() {
    enter();
    try {
      type0();
    } finally {
      recursion--;
    }
  }

  private void type0() {
    char tag = nextChar();
    String basic = basicType(tag);
    if (basic != null) {
      print(basic);
      return;
    }
    switch (tag) {
      case 'R':
      case 'Q':
        print('&');
        if (eat('L')) {
          long lt = integer62();
          if (lt != 0) {
            lifetime(lt);
            print(' ');
          }
        }
        if (tag != 'R') {
          print("mut ");
        }
        type();
        break;
      case 'P':
        print("*const ");
        type();
        break;
      case 'O':
        print("*mut ");
        type();
        break;
      case 'A':
        print('[');
        type();
        print("; ");
        constant();
        print(']');
        break;
      case 'S':
        print('[');
        type();
        print(']');
        break;
      case 'T':
        {
          print('(');
          int i = 0;
          for (; !eat('E'); i++) {
            if (i > 0) {
              print(", ");
            }
            type();
          }
          if (i == 1) {
            print(',');
          }
          print(')');
          break;
        }
      case 'F':
        {
          int bound = binder();
          boolean isUnsafe = eat('U');
          String abi = null;
          int abiStart = 0;
          int abiLen = 0;
          if (eat('K')) {
            if (eat('C')) {
              abi = "C";
            } else {
              ident();
              if (identPunycode) {
                throw FAIL;
              }
              abiStart = identStart;
              abiLen = identLen;
              abi = "";
            }
          }
          if (isUnsafe) {
            print("unsafe ");
          }
          if (abi != null) {
            print("extern \"");
            if (abi.equals("C")) {
              print("C");
            } else {
              // '_' in the mangled ABI name stands for '-'
              for (int i = 0; i < abiLen; i++) {
                char c = s.charAt(abiStart + i);
                print(c == '_' ? '-' : c);
              }
            }
            print("\" ");
          }
          print("fn(");
          for (int i = 0; !eat('E'); i++) {
            if (i > 0) {
              print(", ");
            }
            type();
          }
          print(')');
          if (eat('u')) {
            // unit return: nothing printed
          } else {
            print(" -> ");
            type();
          }
          boundLifetimes -= bound;
          break;
        }
      case 'D':
        {
          print("dyn ");
          int bound = binder();
          for (int i = 0; !eat('E'); i++) {
            if (i > 0) {
              print(" + ");
            }
            dynTrait();
          }
          boundLifetimes -= bound;
          if (!eat('L')) {
            throw FAIL;
          }
          long lt = integer62();
          if (lt != 0) {
            print(" + ");
            lifetime(lt);
          }
          break;
        }
      case 'B':
        {
          int at = next - 1;
          long backref = integer62();
          if (backref < 0 || backref >= at - startOffset()) {
            throw FAIL;
          }
          if (!skipping) {
            int saved = next;
            next = (int) backref + startOffset();
            type();
            next = saved;
          }
          break;
        }
      default:
        next--;
        path(false);
    }
  }

  /** {@code G n}: binds n + 1 lifetimes, printed as {@code for<'a, 'b> }. */
  private int binder() {
    if (!eat('G')) {
      return 0;
    }
    long n = integer62() + 1;
    if (n > 1024) {
      throw FAIL;
    }
    print("for<");
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        print(", ");
      }
      boundLifetimes++;
      lifetime(1);
    }
    print("> ");
    return (int) n;
  }

  private void dynTrait() {
    boolean open = pathMaybeOpenGenerics();
    while (eat('p')) {
      if (!open) {
        print('<');
        open = true;
      } else {
        print(", ");
      }
      ident();
      printIdent(identStart, identLen, identPunycode);
      print(" = ");
      type();
    }
    if (open) {
      print('>');
    }
  }

  /** A path whose generic arguments stay open ({@code Trait<A}) for associated types. */
  private boolean pathMaybeOpenGenerics() {
    if (eat('B')) {
      int at = next - 1;
      long backref = integer62();
      if (backref < 0 || backref >= at - startOffset()) {
        throw FAIL;
      }
      boolean open = false;
      int saved = next;
      next = (int) backref + startOffset();
      enter();
      try {
        open = pathMaybeOpenGenerics();
      } finally {
        recursion--;
      }
      next = saved;
      return open;
    }
    if (eat('I')) {
      path(false);
      print('<');
      for (int i = 0; !eat('E'); i++) {
        if (i > 0) {
          print(", ");
        }
        genericArg();
      }
      return true;
    }
    path(false);
    return false;
  }

  private void constant() {
    enter();
    try {
      constant0();
    } finally {
      recursion--;
    }
  }

  private void constant0() {
    if (eat('B')) {
      int at = next - 1;
      long backref = integer62();
      if (backref < 0 || backref >= at - startOffset()) {
        throw FAIL;
      }
      if (!skipping) {
        int saved = next;
        next = (int) backref + startOffset();
        constant();
        next = saved;
      }
      return;
    }
    char tag = nextChar();
    switch (tag) {
      case 'p':
        print('_');
        return;
      case 'h':
      case 't':
      case 'm':
      case 'y':
      case 'o':
      case 'j':
        constUint(tag);
        return;
      case 'a':
      case 's':
      case 'l':
      case 'x':
      case 'n':
      case 'i':
        if (eat('n')) {
          print('-');
        }
        constUint(tag);
        return;
      case 'b':
        {
          long v = hexValue();
          if (v == 0) {
            print("false");
          } else if (v == 1) {
            print("true");
          } else {
            throw FAIL;
          }
          if (verbose) {
            print(": bool");
          }
          return;
        }
      case 'c':
        {
          long v = hexValue();
          if (v > 0x10FFFF) {
            throw FAIL;
          }
          print('\'');
          printChar((int) v);
          print('\'');
          if (verbose) {
            print(": char");
          }
          return;
        }
      default:
        throw FAIL;
    }
  }

  private void printChar(int c) {
    switch (c) {
      case '\t':
        print("\\t");
        return;
      case '\r':
        print("\\r");
        return;
      case '\n':
        print("\\n");
        return;
      case '\\':
        print("\\\\");
        return;
      case '\'':
        print("\\'");
        return;
      default:
        if (c >= 0x20 && c < 0x7f) {
          print((char) c);
        } else {
          print("\\u{" + Integer.toHexString(c) + "}");
        }
    }
  }

  private void constUint(char tag) {
    int start = next;
    long v = 0;
    boolean overflow = false;
    while (!eat('_')) {
      char c = nextChar();
      int d = lowerHex(c);
      if (d < 0) {
        throw FAIL;
      }
      if ((v >>> 60) != 0) {
        overflow = true;
      }
      v = (v << 4) | d;
    }
    int hexLen = next - 1 - start;
    if (overflow || hexLen > 16) {
      print("0x");
      print(s.substring(start, next - 1));
    } else {
      print(Long.toUnsignedString(v));
    }
    if (verbose) {
      print(": ");
      print(basicType(tag));
    }
  }

  private long hexValue() {
    long v = 0;
    int digits = 0;
    while (!eat('_')) {
      char c = nextChar();
      int d = lowerHex(c);
      if (d < 0 || ++digits > 16) {
        throw FAIL;
      }
      v = (v << 4) | d;
    }
    return v;
  }

  static int lowerHex(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    return -1;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isUpper(char c) {
    return c >= 'A' && c <= 'Z';
  }

  private static boolean isLower(char c) {
    return c >= 'a' && c <= 'z';
  }

  private static boolean isAlnum(char c) {
    return isDigit(c) || isUpper(c) || isLower(c);
  }
}
