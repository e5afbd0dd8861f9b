package io.symbolicate.symbols.demangle;

import io.symbolicate.symbols.demangle.MsvcNodes.Array;
import io.symbolicate.symbols.demangle.MsvcNodes.BaseClassDescriptor;
import io.symbolicate.symbols.demangle.MsvcNodes.Conversion;
import io.symbolicate.symbols.demangle.MsvcNodes.Custom;
import io.symbolicate.symbols.demangle.MsvcNodes.DynamicStructor;
import io.symbolicate.symbols.demangle.MsvcNodes.Function;
import io.symbolicate.symbols.demangle.MsvcNodes.Ident;
import io.symbolicate.symbols.demangle.MsvcNodes.IntegerLiteral;
import io.symbolicate.symbols.demangle.MsvcNodes.LiteralOperator;
import io.symbolicate.symbols.demangle.MsvcNodes.NameOnly;
import io.symbolicate.symbols.demangle.MsvcNodes.Named;
import io.symbolicate.symbols.demangle.MsvcNodes.Node;
import io.symbolicate.symbols.demangle.MsvcNodes.Operator;
import io.symbolicate.symbols.demangle.MsvcNodes.Out;
import io.symbolicate.symbols.demangle.MsvcNodes.Pointer;
import io.symbolicate.symbols.demangle.MsvcNodes.Primitive;
import io.symbolicate.symbols.demangle.MsvcNodes.QName;
import io.symbolicate.symbols.demangle.MsvcNodes.Signature;
import io.symbolicate.symbols.demangle.MsvcNodes.SpecialTable;
import io.symbolicate.symbols.demangle.MsvcNodes.StaticGuard;
import io.symbolicate.symbols.demangle.MsvcNodes.StringLiteral;
import io.symbolicate.symbols.demangle.MsvcNodes.Structor;
import io.symbolicate.symbols.demangle.MsvcNodes.Symbol;
import io.symbolicate.symbols.demangle.MsvcNodes.SymbolReference;
import io.symbolicate.symbols.demangle.MsvcNodes.Tag;
import io.symbolicate.symbols.demangle.MsvcNodes.Thunk;
import io.symbolicate.symbols.demangle.MsvcNodes.Type;
import io.symbolicate.symbols.demangle.MsvcNodes.Variable;
import io.symbolicate.symbols.demangle.MsvcNodes.VcallThunk;
import java.util.ArrayList;
import java.util.List;

/**
 * Demangles Microsoft C++ decorated names ({@code ?f@@YAXH@Z}) as LLVM's {@code llvm-undname}
 * (19) prints them; see docs/native.md, "MSVC demangling". {@link Style#BREAKPAD} is the form of
 * Breakpad's {@code dump_syms.exe} PUBLIC records (DIA's undecorator with access, calling
 * conventions, return types and tags left out).
 *
 * <p>Like {@code llvm-undname}, characters after a complete name are ignored. A name that is not
 * decorated, or decorated wrongly, gives {@code null}; nothing throws. Bounded: input 64 KiB,
 * parser recursion {@value #MAX_RECURSION}, {@value #MAX_OUTPUT} characters of output (back
 * references can multiply a name).
 */
public final class MsvcDemangler {
  /** Which peer's spelling. */
  public enum Style {
    /** {@code llvm-undname}: access, calling conventions, return types, tags. */
    FULL,
    /** Breakpad's {@code dump_syms.exe} PUBLIC names. */
    BREAKPAD,
    /**
     * Breakpad's FUNC names, as the older DIA of its goldens undecorates a function's public:
     * {@code f(char const *,int)}, no {@code const} of {@code this}, {@code `scalar deleting
     * destructor'}.
     */
    BREAKPAD_FUNC
  }

  /** DIA's {@code UNDNAME_NO_MS_KEYWORDS | NO_FUNCTION_RETURNS | NO_ACCESS_SPECIFIERS | ...}. */
  private static final int BREAKPAD_FLAGS =
      MsvcNodes.NO_ACCESS
          | MsvcNodes.NO_CALLING_CONVENTION
          | MsvcNodes.NO_MEMBER_TYPE
          | MsvcNodes.NO_RETURN_TYPE
          | MsvcNodes.NO_TAG
          | MsvcNodes.UNDNAME;

  static final int MAX_RECURSION = 128;
  static final int MAX_OUTPUT = 1 << 20;

  static final class Fail extends RuntimeException {
    Fail() {
      super(null, null, false, false);
    }
  }

  static final Fail FAIL = new Fail();

  private static final int BACKREFS = 10;

  private final String s;
  private int p;
  private int depth;
  private final int[] budget = {MAX_OUTPUT};

  // back references: names and function parameter types, saved around template arguments
  private Named[] names = new Named[BACKREFS];
  private int nameCount;
  private Type[] params = new Type[BACKREFS];
  private int paramCount;

  /** How names are rendered where they are remembered for back references. */
  private final int innerFlags;

  private MsvcDemangler(String s, int flags) {
    this.s = s;
    this.innerFlags = flags & ~MsvcNodes.NO_RETURN_TYPE;
  }

  /** The {@code llvm-undname} form, or null when {@code symbol} is not a decorated name. */
  public static String demangle(String symbol) {
    return demangle(symbol, Style.FULL);
  }

  /** The demangled name in {@code style}, or null. */
  public static String demangle(String symbol, Style style) {
    try {
      return demangleUnchecked(symbol, style);
    } catch (RuntimeException e) {
      // a bug of ours must not fail a dump: the name stays as it is (the fuzz target calls
      // demangleUnchecked, where it would show)
      return null;
    }
  }

  /** As {@link #demangle(String, Style)}, but an unexpected exception is thrown. */
  static String demangleUnchecked(String symbol, Style style) {
    if (symbol == null
        || symbol.isEmpty()
        || symbol.length() > Demangler.MAX_INPUT
        || (symbol.charAt(0) != '?' && symbol.charAt(0) != '.')) {
      return null;
    }
    int flags =
        switch (style) {
          case FULL -> 0;
          case BREAKPAD -> BREAKPAD_FLAGS;
          case BREAKPAD_FUNC -> BREAKPAD_FLAGS | MsvcNodes.OLD_UNDNAME;
        };
    MsvcDemangler d = new MsvcDemangler(symbol, flags);
    try {
      Symbol sym = d.parse();
      Out o = new Out(d.budget);
      sym.out(o, flags);
      return o.toString();
    } catch (Fail | StackOverflowError e) {
      return null;
    }
  }

  /** The demangled name, or {@code symbol} itself when it is not a decorated name. */
  public static String demangleOrSelf(String symbol, Style style) {
    String d = demangle(symbol, style);
    return d == null ? symbol : d;
  }

  // ---- input ----

  private boolean more() {
    return p < s.length();
  }

  private char peek() {
    if (p >= s.length()) {
      throw FAIL;
    }
    return s.charAt(p);
  }

  private char next() {
    char c = peek();
    p++;
    return c;
  }

  private boolean eat(char c) {
    if (p < s.length() && s.charAt(p) == c) {
      p++;
      return true;
    }
    return false;
  }

  private boolean eat(String prefix) {
    if (s.startsWith(prefix, p)) {
      p += prefix.length();
      return true;
    }
    return false;
  }

  private boolean at(String prefix) {
    return s.startsWith(prefix, p);
  }

  private boolean atDigit() {
    return p < s.length() && s.charAt(p) >= '0' && s.charAt(p) <= '9';
  }

  private void enter() {
    if (++depth > MAX_RECURSION) {
      throw FAIL;
    }
  }

  /** An encoded number as (value, negative). */
  private long[] encodedNumber() {
    boolean negative = eat('?');
    if (atDigit()) {
      return new long[] {next() - '0' + 1, negative ? 1 : 0};
    }
    long v = 0;
    while (true) {
      char c = next();
      if (c == '@') {
        return new long[] {v, negative ? 1 : 0};
      }
      if (c < 'A' || c > 'P') {
        throw FAIL;
      }
      v = (v << 4) + (c - 'A');
    }
  }

  private long unsigned() {
    long[] n = encodedNumber();
    if (n[1] != 0) {
      throw FAIL;
    }
    return n[0];
  }

  private long signed() {
    long[] n = encodedNumber();
    if (n[0] < 0) {
      throw FAIL; // past INT64_MAX
    }
    return n[1] != 0 ? -n[0] : n[0];
  }

  // ---- symbols ----

  private Symbol parse() {
    enter();
    try {
      if (eat('.')) {
        Type t = type(Mode.RESULT);
        if (more()) {
          throw FAIL;
        }
        return variable(t, "`RTTI Type Descriptor Name'");
      }
      if (at("??@")) {
        return md5();
      }
      if (!eat('?')) {
        throw FAIL;
      }
      Symbol special = specialIntrinsic();
      return special != null ? special : declarator();
    } finally {
      depth--;
    }
  }

  private Symbol md5() {
    int start = p;
    int end = s.indexOf('@', p + 3);
    if (end < 0) {
      throw FAIL;
    }
    p = end + 1;
    eat("??_R4@");
    String md5 = s.substring(start, p);
    NameOnly n = new NameOnly();
    n.name = single(new Named(md5));
    return n;
  }

  private static QName single(Ident id) {
    List<Ident> parts = new ArrayList<>(1);
    parts.add(id);
    return new QName(parts);
  }

  private static Variable variable(Type t, String name) {
    Variable v = new Variable();
    v.type = t;
    v.name = single(new Named(name));
    return v;
  }

  private Symbol declarator() {
    QName qn = symbolName();
    Symbol sym = encodedSymbol(qn);
    sym.name = qn;
    return sym;
  }

  private Symbol encodedSymbol(QName qn) {
    char c = peek();
    if (c >= '0' && c <= '4') {
      p++;
      int storage =
          switch (c) {
            case '0' -> MsvcNodes.PRIVATE_STATIC;
            case '1' -> MsvcNodes.PROTECTED_STATIC;
            case '2' -> MsvcNodes.PUBLIC_STATIC;
            default -> 0;
          };
      return variableEncoding(storage);
    }
    Function f = functionEncoding();
    if (qn.last() instanceof Conversion conv) {
      conv.target = f.signature.returnType;
      if (conv.target == null) {
        throw FAIL; // a conversion needs its type
      }
    }
    return f;
  }

  private Variable variableEncoding(int storage) {
    Variable v = new Variable();
    v.storage = storage;
    v.type = type(Mode.DROP);
    if (v.type instanceof Pointer ptr) {
      ptr.quals |= pointerExtQualifiers();
      int childQuals = qualifiers()[0];
      if (ptr.memberOf != null) {
        fullTypeName(); // the class again
      }
      ptr.pointee.quals |= childQuals;
    } else {
      v.type.quals = qualifiers()[0];
    }
    return v;
  }

  private Function functionEncoding() {
    int extra = eat("$$J0") ? MsvcNodes.EXTERN_C : 0;
    int fc = functionClass() | extra;
    Thunk thunk = null;
    if ((fc & MsvcNodes.STATIC_THIS_ADJUST) != 0) {
      thunk = new Thunk();
      thunk.staticOffset = (int) signed();
    } else if ((fc & MsvcNodes.VIRTUAL_THIS_ADJUST) != 0) {
      thunk = new Thunk();
      if ((fc & MsvcNodes.VIRTUAL_THIS_ADJUST_EX) != 0) {
        thunk.vbPtrOffset = (int) signed();
        thunk.vbOffsetOffset = (int) signed();
      }
      thunk.vtordispOffset = (int) signed();
      thunk.staticOffset = (int) signed();
    }
    Signature sig;
    if ((fc & MsvcNodes.NO_PARAMETER_LIST) != 0) {
      sig = new Signature();
    } else {
      sig = functionType((fc & (MsvcNodes.GLOBAL | MsvcNodes.STATIC)) == 0);
    }
    if (thunk != null) {
      thunk.copyFrom(sig);
      sig = thunk;
    }
    sig.functionClass = fc;
    Function f = new Function();
    f.signature = sig;
    return f;
  }

  private int functionClass() {
    final int pri = MsvcNodes.PRIVATE;
    final int pro = MsvcNodes.PROTECTED;
    final int pub = MsvcNodes.PUBLIC;
    final int st = MsvcNodes.STATIC;
    final int vi = MsvcNodes.VIRTUAL;
    final int far = MsvcNodes.FAR;
    final int adj = MsvcNodes.STATIC_THIS_ADJUST;
    char c = next();
    switch (c) {
      case '9':
        return MsvcNodes.EXTERN_C | MsvcNodes.NO_PARAMETER_LIST;
      case 'A':
        return pri;
      case 'B':
        return pri | far;
      case 'C':
        return pri | st;
      case 'D':
        return pri | st | far;
      case 'E':
        return pri | vi;
      case 'F':
        return pri | vi | far;
      case 'G':
        return pri | adj;
      case 'H':
        return pri | adj | far;
      case 'I':
        return pro;
      case 'J':
        return pro | far;
      case 'K':
        return pro | st;
      case 'L':
        return pro | st | far;
      case 'M':
        return pro | vi;
      case 'N':
        return pro | vi | far;
      case 'O':
        return pro | vi | adj;
      case 'P':
        return pro | vi | adj | far;
      case 'Q':
        return pub;
      case 'R':
        return pub | far;
      case 'S':
        return pub | st;
      case 'T':
        return pub | st | far;
      case 'U':
        return pub | vi;
      case 'V':
        return pub | vi | far;
      case 'W':
        return pub | vi | adj;
      case 'X':
        return pub | vi | adj | far;
      case 'Y':
        return MsvcNodes.GLOBAL;
      case 'Z':
        return MsvcNodes.GLOBAL | far;
      case '$':
        {
          int vflag = MsvcNodes.VIRTUAL_THIS_ADJUST;
          if (eat('R')) {
            vflag |= MsvcNodes.VIRTUAL_THIS_ADJUST_EX;
          }
          switch (next()) {
            case '0':
              return pri | vi | vflag;
            case '1':
              return pri | vi | vflag | far;
            case '2':
              return pro | vi | vflag;
            case '3':
              return pro | vi | vflag | far;
            case '4':
              return pub | vi | vflag;
            case '5':
              return pub | vi | vflag | far;
            default:
              throw FAIL;
          }
        }
      default:
        throw FAIL;
    }
  }

  private Signature functionType(boolean thisQuals) {
    enter();
    try {
      Signature sig = new Signature();
      if (thisQuals) {
        sig.quals = pointerExtQualifiers();
        if (eat('G')) {
          sig.refQualifier = MsvcNodes.REFERENCE;
        } else if (eat('H')) {
          sig.refQualifier = MsvcNodes.RVALUE_REFERENCE;
        }
        sig.quals |= qualifiers()[0];
      }
      sig.callingConvention = callingConvention();
      if (!eat('@')) {
        sig.returnType = type(Mode.RESULT);
      }
      parameters(sig);
      if (eat("_E")) {
        sig.noexcept = true;
      } else if (!eat('Z')) {
        throw FAIL;
      }
      return sig;
    } finally {
      depth--;
    }
  }

  private int callingConvention() {
    return switch (next()) {
      case 'A', 'B' -> 1;
      case 'C', 'D' -> 2;
      case 'E', 'F' -> 3;
      case 'G', 'H' -> 4;
      case 'I', 'J' -> 5;
      case 'M', 'N' -> 6;
      case 'O', 'P' -> 7;
      case 'Q' -> 8;
      case 'S' -> 10;
      case 'W' -> 11;
      default -> 0; // llvm-undname prints no convention for the others
    };
  }

  private void parameters(Signature sig) {
    if (eat('X')) {
      return;
    }
    List<Type> list = new ArrayList<>();
    while (!at("@") && !at("Z")) {
      if (!more()) {
        throw FAIL;
      }
      if (atDigit()) {
        int n = next() - '0';
        if (n >= paramCount) {
          throw FAIL;
        }
        list.add(params[n]);
        continue;
      }
      int start = p;
      Type t = type(Mode.DROP);
      list.add(t);
      if (paramCount < BACKREFS && p - start > 1) {
        params[paramCount++] = t;
      }
    }
    sig.params = list;
    if (!eat('@')) {
      eat('Z');
      sig.variadic = true;
    }
  }

  /** {@code E} (64-bit), {@code I} (restrict), {@code F} (unaligned), each at most once. */
  private int pointerExtQualifiers() {
    int q = 0;
    if (eat('E')) {
      q |= MsvcNodes.PTR64;
    }
    if (eat('I')) {
      q |= MsvcNodes.RESTRICT;
    }
    if (eat('F')) {
      q |= MsvcNodes.UNALIGNED;
    }
    return q;
  }

  /** {@code [qualifiers, member?]}. */
  private int[] qualifiers() {
    return switch (next()) {
      case 'Q' -> new int[] {0, 1};
      case 'R' -> new int[] {MsvcNodes.CONST, 1};
      case 'S' -> new int[] {MsvcNodes.VOLATILE, 1};
      case 'T' -> new int[] {MsvcNodes.CONST | MsvcNodes.VOLATILE, 1};
      case 'A' -> new int[] {0, 0};
      case 'B' -> new int[] {MsvcNodes.CONST, 0};
      case 'C' -> new int[] {MsvcNodes.VOLATILE, 0};
      case 'D' -> new int[] {MsvcNodes.CONST | MsvcNodes.VOLATILE, 0};
      default -> throw FAIL;
    };
  }

  // ---- special names ----

  private Symbol specialIntrinsic() {
    if (eat("?_7")) {
      return specialTable("`vftable'");
    }
    if (eat("?_8")) {
      return specialTable("`vbtable'");
    }
    if (eat("?_9")) {
      return vcallThunk();
    }
    if (eat("?_A")) {
      throw FAIL; // typeof: not demangled by llvm-undname either
    }
    if (eat("?_B")) {
      return staticGuard(false);
    }
    if (eat("?_C")) {
      return stringLiteral();
    }
    if (eat("?_P")) {
      throw FAIL;
    }
    if (eat("?_R0")) {
      Type t = type(Mode.RESULT);
      if (!eat("@8") || more()) {
        throw FAIL;
      }
      return variable(t, "`RTTI Type Descriptor'");
    }
    if (eat("?_R1")) {
      long nv = unsigned();
      int vbPtr = (int) signed();
      long vbTable = unsigned();
      long flags = unsigned();
      Variable v = new Variable();
      v.name =
          scopeChain(
              new BaseClassDescriptor(
                  nv & 0xffffffffL, vbPtr, vbTable & 0xffffffffL, flags & 0xffffffffL));
      eat('8');
      return v;
    }
    if (eat("?_R2")) {
      return untypedVariable("`RTTI Base Class Array'");
    }
    if (eat("?_R3")) {
      return untypedVariable("`RTTI Class Hierarchy Descriptor'");
    }
    if (eat("?_R4")) {
      return specialTable("`RTTI Complete Object Locator'");
    }
    if (eat("?_S")) {
      return specialTable("`local vftable'");
    }
    if (eat("?__E")) {
      return initFini(false);
    }
    if (eat("?__F")) {
      return initFini(true);
    }
    if (eat("?__J")) {
      return staticGuard(true);
    }
    return null;
  }

  private Symbol specialTable(String name) {
    SpecialTable t = new SpecialTable();
    t.name = scopeChain(new Named(name));
    char c = next();
    if (c != '6' && c != '7') {
      throw FAIL;
    }
    t.quals = qualifiers()[0];
    if (!eat('@')) {
      t.target = fullTypeName();
    }
    return t;
  }

  private Symbol vcallThunk() {
    Function f = new Function();
    VcallThunk id = new VcallThunk();
    Thunk sig = new Thunk();
    sig.functionClass = MsvcNodes.NO_PARAMETER_LIST;
    f.signature = sig;
    f.name = scopeChain(id);
    if (!eat("$B")) {
      throw FAIL;
    }
    id.offset = unsigned();
    if (!eat('A')) {
      throw FAIL;
    }
    sig.callingConvention = callingConvention();
    return f;
  }

  private Symbol staticGuard(boolean thread) {
    StaticGuard id = new StaticGuard(thread);
    NameOnly v = new NameOnly();
    v.name = scopeChain(id);
    if (!eat("4IA") && !eat('5')) {
      throw FAIL;
    }
    if (more()) {
      id.scope = unsigned() & 0xffffffffL;
    }
    return v;
  }

  private Symbol untypedVariable(String name) {
    Variable v = new Variable();
    v.name = scopeChain(new Named(name));
    if (!eat('8')) {
      throw FAIL;
    }
    return v;
  }

  private Symbol initFini(boolean destructor) {
    DynamicStructor id = new DynamicStructor(destructor);
    boolean member = eat('?');
    Symbol sym = declarator();
    Function f;
    if (sym instanceof Variable v) {
      id.variable = v;
      for (int i = member ? 2 : 1; i > 0; i--) {
        if (!eat('@')) {
          throw FAIL;
        }
      }
      f = functionEncoding();
    } else {
      if (member) {
        throw FAIL;
      }
      f = (Function) sym;
      id.name = sym.name;
    }
    f.name = single(id);
    return f;
  }

  // ---- string literals ----

  private static final String DIGIT_CHARS = ",/\\:. \n\t'-";

  private Symbol stringLiteral() {
    if (!eat("@_")) {
      throw FAIL;
    }
    char kind = next();
    if (kind != '0' && kind != '1') {
      throw FAIL;
    }
    boolean wide = kind == '1';
    long[] size = encodedNumber();
    long bytes = size[0];
    if (size[1] != 0 || Long.compareUnsigned(bytes, wide ? 2 : 1) < 0) {
      throw FAIL;
    }
    int crcEnd = s.indexOf('@', p);
    if (crcEnd < 0) {
      throw FAIL;
    }
    p = crcEnd + 1;
    if (!more()) {
      throw FAIL;
    }
    StringLiteral lit = new StringLiteral();
    StringBuilder out = new StringBuilder();
    if (wide) {
      lit.prefix = "L\"";
      lit.truncated = Long.compareUnsigned(bytes, 64) > 0;
      while (!eat('@')) {
        if (s.length() - p < 2) {
          throw FAIL;
        }
        int c1 = charLiteral();
        if (!more()) {
          throw FAIL;
        }
        int c2 = charLiteral();
        int w = (c1 << 8) | c2;
        if (bytes != 2 || lit.truncated) {
          escaped(out, w);
        }
        bytes -= 2;
      }
    } else {
      byte[] raw = new byte[128];
      int n = 0;
      while (!eat('@')) {
        if (!more() || n >= raw.length) {
          throw FAIL;
        }
        raw[n++] = (byte) charLiteral();
      }
      lit.truncated = Long.compareUnsigned(bytes, n) > 0;
      int width = charWidth(raw, n, bytes);
      lit.prefix = width == 1 ? "\"" : width == 2 ? "u\"" : "U\"";
      int chars = n / width;
      for (int i = 0; i < chars; i++) {
        int c = 0;
        for (int k = 0; k < width; k++) {
          c |= (raw[i * width + k] & 0xff) << (8 * k);
        }
        if (i + 1 < chars || lit.truncated) {
          escaped(out, c);
        }
      }
    }
    if (budget[0] - out.length() < 0) {
      throw FAIL;
    }
    lit.decoded = out.toString();
    lit.name = single(new Named("`string'"));
    return lit;
  }

  private int charLiteral() {
    if (!eat('?')) {
      return next() & 0xff;
    }
    if (eat('$')) {
      if (s.length() - p < 2) {
        throw FAIL;
      }
      char a = s.charAt(p);
      char b = s.charAt(p + 1);
      if (a < 'A' || a > 'P' || b < 'A' || b > 'P') {
        throw FAIL;
      }
      p += 2;
      return ((a - 'A') << 4) | (b - 'A');
    }
    char c = next();
    if (c >= '0' && c <= '9') {
      return DIGIT_CHARS.charAt(c - '0');
    }
    if (c >= 'a' && c <= 'z') {
      return 0xE1 + (c - 'a');
    }
    if (c >= 'A' && c <= 'Z') {
      return 0xC1 + (c - 'A');
    }
    throw FAIL;
  }

  /** Bytes per character, guessed from the terminating and embedded zeros as llvm-undname. */
  private static int charWidth(byte[] raw, int n, long bytes) {
    if (bytes % 2 == 1) {
      return 1;
    }
    if (Long.compareUnsigned(bytes, 32) < 0) {
      int trailing = 0;
      for (int i = n - 1; i >= 0 && raw[i] == 0; i--) {
        trailing++;
      }
      if (trailing >= 4 && bytes % 4 == 0) {
        return 4;
      }
      return trailing >= 2 ? 2 : 1;
    }
    int zeros = 0;
    for (int i = 0; i < n; i++) {
      if (raw[i] == 0) {
        zeros++;
      }
    }
    if (zeros >= 2 * n / 3 && bytes % 4 == 0) {
      return 4;
    }
    return zeros >= n / 3 ? 2 : 1;
  }

  private static void escaped(StringBuilder out, int c) {
    switch (c) {
      case 0 -> out.append("\\0");
      case '\'' -> out.append("\\'");
      case '"' -> out.append("\\\"");
      case '\\' -> out.append("\\\\");
      case 7 -> out.append("\\a");
      case 8 -> out.append("\\b");
      case 12 -> out.append("\\f");
      case '\n' -> out.append("\\n");
      case '\r' -> out.append("\\r");
      case '\t' -> out.append("\\t");
      case 11 -> out.append("\\v");
      default -> {
        if (c > 0x1f && c < 0x7f) {
          out.append((char) c);
        } else {
          // pairs of upper-case hex digits, most significant first
          StringBuilder hex = new StringBuilder();
          long v = c & 0xffffffffL;
          while (v != 0) {
            for (int i = 0; i < 2; i++) {
              hex.append("0123456789ABCDEF".charAt((int) (v % 16)));
              v /= 16;
            }
          }
          out.append("\\x").append(hex.reverse());
        }
      }
    }
  }

  // ---- names ----

  private QName symbolName() {
    Ident id = unqualifiedSymbolName(true, false);
    QName qn = scopeChain(id);
    if (id instanceof Structor st) {
      if (qn.parts.size() < 2) {
        throw FAIL;
      }
      st.owner = qn.parts.get(qn.parts.size() - 2);
    }
    return qn;
  }

  private Ident unqualifiedSymbolName(boolean simple, boolean template) {
    if (atDigit()) {
      return backrefName();
    }
    if (at("?$")) {
      return templateName(template);
    }
    if (at("?")) {
      return functionIdentifierCode();
    }
    return simpleName(simple);
  }

  private QName fullTypeName() {
    Ident id;
    if (atDigit()) {
      id = backrefName();
    } else if (at("?$")) {
      id = templateName(true);
    } else {
      id = simpleName(true);
    }
    return scopeChain(id);
  }

  private QName scopeChain(Ident last) {
    List<Ident> reversed = new ArrayList<>();
    reversed.add(last);
    while (!eat('@')) {
      if (!more()) {
        throw FAIL;
      }
      reversed.add(scopePiece());
    }
    List<Ident> parts = new ArrayList<>(reversed.size());
    for (int i = reversed.size() - 1; i >= 0; i--) {
      parts.add(reversed.get(i));
    }
    return new QName(parts);
  }

  private Ident scopePiece() {
    if (atDigit()) {
      return backrefName();
    }
    if (at("?$")) {
      return templateName(true);
    }
    if (at("?A")) {
      p += 2;
      int end = s.indexOf('@', p);
      if (end < 0) {
        throw FAIL;
      }
      memorize(s.substring(p, end));
      p = end + 1;
      return new Named("`anonymous namespace'");
    }
    if (atLocalScope()) {
      p++;
      long[] n = encodedNumber();
      eat('?');
      Symbol scope = parse();
      Out o = new Out(budget);
      o.add('`');
      scope.out(o, innerFlags);
      o.add("'::`").add(Long.toUnsignedString(n[0])).add('\'');
      return new Named(o.toString());
    }
    return simpleName(true);
  }

  /** {@code ?<number>?}: a scope inside a function. */
  private boolean atLocalScope() {
    if (!at("?")) {
      return false;
    }
    int end = s.indexOf('?', p + 1);
    if (end < 0 || end == p + 1) {
      return false;
    }
    String c = s.substring(p + 1, end);
    if (c.length() == 1) {
      return c.charAt(0) == '@' || (c.charAt(0) >= '0' && c.charAt(0) <= '9');
    }
    if (c.charAt(c.length() - 1) != '@' || c.charAt(0) < 'B' || c.charAt(0) > 'P') {
      return false;
    }
    for (int i = 1; i < c.length() - 1; i++) {
      if (c.charAt(i) < 'A' || c.charAt(i) > 'P') {
        return false;
      }
    }
    return true;
  }

  private Ident backrefName() {
    int i = next() - '0';
    if (i >= nameCount) {
      throw FAIL;
    }
    return names[i];
  }

  private Named simpleName(boolean memorize) {
    int end = s.indexOf('@', p);
    if (end <= p) {
      throw FAIL;
    }
    String name = s.substring(p, end);
    p = end + 1;
    if (memorize) {
      memorize(name);
    }
    return new Named(name);
  }

  private void memorize(String name) {
    if (nameCount >= BACKREFS) {
      return;
    }
    for (int i = 0; i < nameCount; i++) {
      if (names[i].name.equals(name)) {
        return;
      }
    }
    names[nameCount++] = new Named(name);
  }

  private Ident templateName(boolean memorize) {
    enter();
    try {
      p += 2;
      Named[] outerNames = names;
      int outerNameCount = nameCount;
      Type[] outerParams = params;
      int outerParamCount = paramCount;
      names = new Named[BACKREFS];
      nameCount = 0;
      params = new Type[BACKREFS];
      paramCount = 0;
      Ident id = unqualifiedSymbolName(true, false);
      id.templateArgs = templateArgs();
      names = outerNames;
      nameCount = outerNameCount;
      params = outerParams;
      paramCount = outerParamCount;
      if (memorize) {
        if (id instanceof Conversion || id instanceof Structor) {
          throw FAIL;
        }
        Out o = new Out(budget);
        id.out(o, innerFlags);
        memorize(o.toString());
      }
      return id;
    } finally {
      depth--;
    }
  }

  private List<Node> templateArgs() {
    List<Node> args = new ArrayList<>();
    while (!eat('@')) {
      if (eat("$S") || eat("$$V") || eat("$$$V") || eat("$$Z")) {
        continue; // an empty pack
      }
      boolean auto = eat("$M");
      if (auto) {
        type(Mode.DROP); // the deduced type is not printed
      }
      if (eat("$$Y")) {
        args.add(new Custom(new Named(fullTypeNameText())));
      } else if (eat("$$B")) {
        args.add(type(Mode.DROP));
      } else if (eat("$$C")) {
        args.add(type(Mode.MANGLE));
      } else if (atArg("1", auto) || atArg("H", auto) || atArg("I", auto) || atArg("J", auto)) {
        if (!auto) {
          p++;
        }
        char inheritance = next();
        SymbolReference ref = new SymbolReference();
        ref.affinity = MsvcNodes.POINTER;
        if (at("?")) {
          ref.symbol = parse();
          if (ref.symbol.name == null) {
            throw FAIL;
          }
          Out o = new Out(budget);
          ref.symbol.name.last().out(o, innerFlags);
          memorize(o.toString());
        }
        int count = inheritance == 'J' ? 3 : inheritance == 'I' ? 2 : inheritance == 'H' ? 1 : 0;
        ref.offsets = new long[count];
        for (int i = 0; i < count; i++) {
          ref.offsets[i] = signed();
        }
        args.add(ref);
      } else if (at("$E?")) {
        p += 2;
        SymbolReference ref = new SymbolReference();
        ref.symbol = parse();
        ref.affinity = MsvcNodes.REFERENCE;
        args.add(ref);
      } else if (atArg("F", auto) || atArg("G", auto)) {
        if (!auto) {
          p++;
        }
        char inheritance = next();
        SymbolReference ref = new SymbolReference();
        ref.offsets = new long[inheritance == 'G' ? 3 : 2];
        for (int i = 0; i < ref.offsets.length; i++) {
          ref.offsets[i] = signed();
        }
        args.add(ref);
      } else if (atArg("0", auto)) {
        p += auto ? 1 : 2;
        long[] n = encodedNumber();
        args.add(new IntegerLiteral(n[0], n[1] != 0));
      } else {
        args.add(type(Mode.DROP));
      }
    }
    return args;
  }

  /** The alias template of {@code $$Y}, printed once as its name. */
  private String fullTypeNameText() {
    QName qn = fullTypeName();
    Out o = new Out(budget);
    qn.out(o, innerFlags);
    return o.toString();
  }

  private boolean atArg(String letter, boolean auto) {
    return auto ? at(letter) : at("$" + letter);
  }

  private Ident functionIdentifierCode() {
    p++; // ?
    if (eat("__")) {
      char c = next();
      if (c == 'K') {
        int end = s.indexOf('@', p);
        if (end <= p) {
          throw FAIL;
        }
        String name = s.substring(p, end);
        p = end + 1;
        return new LiteralOperator(name);
      }
      return new Operator(operatorName(DOUBLE_UNDER, c));
    }
    if (eat('_')) {
      return new Operator(operatorName(UNDER, next()));
    }
    char c = next();
    if (c == '0' || c == '1') {
      return new Structor(c == '1');
    }
    if (c == 'B') {
      return new Conversion();
    }
    return new Operator(operatorName(BASIC, c));
  }

  private static String operatorName(String[] table, char c) {
    int i;
    if (c >= '0' && c <= '9') {
      i = c - '0';
    } else if (c >= 'A' && c <= 'Z') {
      i = c - 'A' + 10;
    } else {
      throw FAIL;
    }
    return table[i];
  }

  private static final String[] BASIC = {
    "",
    "",
    "operator new",
    "operator delete",
    "operator=",
    "operator>>",
    "operator<<",
    "operator!",
    "operator==",
    "operator!=",
    "operator[]",
    "",
    "operator->",
    "operator*",
    "operator++",
    "operator--",
    "operator-",
    "operator+",
    "operator&",
    "operator->*",
    "operator/",
    "operator%",
    "operator<",
    "operator<=",
    "operator>",
    "operator>=",
    "operator,",
    "operator()",
    "operator~",
    "operator^",
    "operator|",
    "operator&&",
    "operator||",
    "operator*=",
    "operator+=",
    "operator-="
  };

  private static final String[] UNDER = {
    "operator/=",
    "operator%=",
    "operator>>=",
    "operator<<=",
    "operator&=",
    "operator|=",
    "operator^=",
    "",
    "",
    "",
    "",
    "",
    "",
    "`vbase dtor'",
    "`vector deleting dtor'",
    "`default ctor closure'",
    "`scalar deleting dtor'",
    "`vector ctor iterator'",
    "`vector dtor iterator'",
    "`vector vbase ctor iterator'",
    "`virtual displacement map'",
    "`eh vector ctor iterator'",
    "`eh vector dtor iterator'",
    "`eh vector vbase ctor iterator'",
    "`copy ctor closure'",
    "",
    "",
    "",
    "",
    "`local vftable ctor closure'",
    "operator new[]",
    "operator delete[]",
    "",
    "",
    "",
    ""
  };

  private static final String[] DOUBLE_UNDER = {
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "`managed vector ctor iterator'",
    "`managed vector dtor iterator'",
    "`EH vector copy ctor iterator'",
    "`EH vector vbase copy ctor iterator'",
    "",
    "",
    "`vector copy ctor iterator'",
    "`vector vbase copy constructor iterator'",
    "`managed vector vbase copy constructor iterator'",
    "",
    "",
    "operator co_await",
    "operator<=>",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    ""
  };

  // ---- types ----

  enum Mode {
    DROP,
    MANGLE,
    RESULT
  }

  private Type type(Mode mode) {
    enter();
    try {
      int quals = 0;
      if (mode == Mode.MANGLE) {
        quals = qualifiers()[0];
      } else if (mode == Mode.RESULT && eat('?')) {
        quals = qualifiers()[0];
      }
      char c = peek();
      Type t;
      if (c == 'T' || c == 'U' || c == 'V' || c == 'W') {
        t = classType();
      } else if (at("$$Q") || c == 'A' || c == 'P' || c == 'Q' || c == 'R' || c == 'S') {
        t = isMemberPointer() ? memberPointerType() : pointerType();
      } else if (c == 'Y') {
        t = arrayType();
      } else if (eat("$$A8@@")) {
        t = functionType(true);
      } else if (eat("$$A6")) {
        t = functionType(false);
      } else if (c == '?') {
        p++;
        Ident id;
        if (atDigit()) {
          id = backrefName();
        } else if (at("?$")) {
          id = templateName(true);
        } else {
          id = simpleName(true);
        }
        if (!eat('@')) {
          throw FAIL;
        }
        t = new Custom(id);
      } else {
        t = primitiveType();
      }
      t.quals |= quals;
      return t;
    } finally {
      depth--;
    }
  }

  private Type primitiveType() {
    if (eat("$$T")) {
      return new Primitive("std::nullptr_t");
    }
    char c = next();
    String name =
        switch (c) {
          case 'X' -> "void";
          case 'D' -> "char";
          case 'C' -> "signed char";
          case 'E' -> "unsigned char";
          case 'F' -> "short";
          case 'G' -> "unsigned short";
          case 'H' -> "int";
          case 'I' -> "unsigned int";
          case 'J' -> "long";
          case 'K' -> "unsigned long";
          case 'M' -> "float";
          case 'N' -> "double";
          case 'O' -> "long double";
          case '_' ->
              switch (next()) {
                case 'N' -> "bool";
                case 'J' -> "__int64";
                case 'K' -> "unsigned __int64";
                case 'W' -> "wchar_t";
                case 'Q' -> "char8_t";
                case 'S' -> "char16_t";
                case 'U' -> "char32_t";
                default -> throw FAIL;
              };
          default -> throw FAIL;
        };
    return new Primitive(name);
  }

  private Type classType() {
    char c = next();
    String kind;
    switch (c) {
      case 'T' -> kind = "union";
      case 'U' -> kind = "struct";
      case 'V' -> kind = "class";
      default -> {
        if (!eat('4')) {
          throw FAIL;
        }
        kind = "enum";
      }
    }
    Tag t = new Tag(kind);
    t.name = fullTypeName();
    return t;
  }

  private boolean isMemberPointer() {
    int q = p;
    char c = s.charAt(q++);
    if (c == '$' || c == 'A') {
      return false;
    }
    if (q < s.length() && s.charAt(q) >= '0' && s.charAt(q) <= '9') {
      char d = s.charAt(q);
      if (d != '6' && d != '8') {
        throw FAIL;
      }
      return d == '8';
    }
    if (q < s.length() && s.charAt(q) == 'E') {
      q++;
    }
    if (q < s.length() && s.charAt(q) == 'I') {
      q++;
    }
    if (q < s.length() && s.charAt(q) == 'F') {
      q++;
    }
    if (q >= s.length()) {
      throw FAIL;
    }
    return switch (s.charAt(q)) {
      case 'A', 'B', 'C', 'D' -> false;
      case 'Q', 'R', 'S', 'T' -> true;
      default -> throw FAIL;
    };
  }

  /** Sets the pointer's own qualifiers and affinity. */
  private void pointerCv(Pointer ptr) {
    if (eat("$$Q")) {
      ptr.affinity = MsvcNodes.RVALUE_REFERENCE;
      return;
    }
    switch (next()) {
      case 'A' -> ptr.affinity = MsvcNodes.REFERENCE;
      case 'P' -> ptr.affinity = MsvcNodes.POINTER;
      case 'Q' -> {
        ptr.affinity = MsvcNodes.POINTER;
        ptr.quals = MsvcNodes.CONST;
      }
      case 'R' -> {
        ptr.affinity = MsvcNodes.POINTER;
        ptr.quals = MsvcNodes.VOLATILE;
      }
      case 'S' -> {
        ptr.affinity = MsvcNodes.POINTER;
        ptr.quals = MsvcNodes.CONST | MsvcNodes.VOLATILE;
      }
      default -> throw FAIL;
    }
  }

  private Type pointerType() {
    Pointer ptr = new Pointer();
    pointerCv(ptr);
    if (eat('6')) {
      ptr.pointee = functionType(false);
      return ptr;
    }
    ptr.quals |= pointerExtQualifiers();
    ptr.pointee = type(Mode.MANGLE);
    return ptr;
  }

  private Type memberPointerType() {
    Pointer ptr = new Pointer();
    pointerCv(ptr);
    ptr.quals |= pointerExtQualifiers();
    if (eat('8')) {
      ptr.memberOf = fullTypeName();
      ptr.pointee = functionType(true);
    } else {
      int quals = qualifiers()[0];
      ptr.memberOf = fullTypeName();
      ptr.pointee = type(Mode.DROP);
      ptr.pointee.quals = quals;
    }
    return ptr;
  }

  private Type arrayType() {
    p++; // Y
    long[] rank = encodedNumber();
    if (rank[1] != 0 || rank[0] == 0) {
      throw FAIL;
    }
    // each dimension takes at least one character: a claimed rank past the input is refused
    if (Long.compareUnsigned(rank[0], s.length() - p) > 0) {
      throw FAIL;
    }
    long[] dims = new long[(int) rank[0]];
    for (int i = 0; i < dims.length; i++) {
      long[] d = encodedNumber();
      if (d[1] != 0) {
        throw FAIL;
      }
      dims[i] = d[0];
    }
    Array a = new Array();
    a.dimensions = dims;
    if (eat("$$C")) {
      int[] q = qualifiers();
      if (q[1] != 0) {
        throw FAIL;
      }
      a.quals = q[0];
    }
    a.element = type(Mode.DROP);
    return a;
  }
}
