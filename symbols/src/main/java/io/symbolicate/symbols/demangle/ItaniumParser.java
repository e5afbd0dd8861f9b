package io.symbolicate.symbols.demangle;

import io.symbolicate.symbols.demangle.Nodes.ArgPack;
import io.symbolicate.symbols.demangle.Nodes.Array;
import io.symbolicate.symbols.demangle.Nodes.ConstructionVtable;
import io.symbolicate.symbols.demangle.Nodes.Encoding;
import io.symbolicate.symbols.demangle.Nodes.Expr;
import io.symbolicate.symbols.demangle.Nodes.Function;
import io.symbolicate.symbols.demangle.Nodes.FunctionParam;
import io.symbolicate.symbols.demangle.Nodes.InitList;
import io.symbolicate.symbols.demangle.Nodes.Lambda;
import io.symbolicate.symbols.demangle.Nodes.Local;
import io.symbolicate.symbols.demangle.Nodes.MemberPointer;
import io.symbolicate.symbols.demangle.Nodes.Name;
import io.symbolicate.symbols.demangle.Nodes.Nested;
import io.symbolicate.symbols.demangle.Nodes.PackExpansion;
import io.symbolicate.symbols.demangle.Nodes.Pointer;
import io.symbolicate.symbols.demangle.Nodes.Prefixed;
import io.symbolicate.symbols.demangle.Nodes.Qualified;
import io.symbolicate.symbols.demangle.Nodes.Suffixed;
import io.symbolicate.symbols.demangle.Nodes.Template;
import io.symbolicate.symbols.demangle.Nodes.TemplateArgs;
import io.symbolicate.symbols.demangle.Nodes.TemplateParam;
import io.symbolicate.symbols.demangle.Nodes.Text;
import io.symbolicate.symbols.demangle.Nodes.Vector;
import java.util.ArrayList;
import java.util.List;

/**
 * One pass of recursive descent over an Itanium C++ ABI name ({@code _Z...}), building {@link
 * Node}s that print as binutils' {@code c++filt} prints them. Malformed input fails with {@link
 * #FAIL} (caught by {@link Demangler}); recursion, substitutions and output are bounded.
 */
final class ItaniumParser {
  /** The one failure: thrown without a stack trace, caught at the entry point. */
  static final RuntimeException FAIL =
      new RuntimeException("not a valid mangled name", null, false, false) {};

  private static final int MAX_RECURSION = 192;
  private static final int MAX_SUBSTITUTIONS = 4096;

  /**
   * Recursive steps one name may take in all. The {@code sr} backtracking (new syntax first, then
   * the old) can otherwise take time and heap exponential in the nesting of {@code sr}.
   */
  private static final int MAX_STEPS = 100_000;

  private int steps;

  private final String s;
  private int pos;
  private final boolean verbose;
  private int recursion;
  private final List<Node> subs = new ArrayList<>();
  private Node lastName;

  /**
   * Parsing a conversion operator's type: {@code T_ I...E} there is the operator's arguments.
   * As libiberty's {@code is_conversion}, it stays set inside the type's template arguments.
   */
  private boolean inConversion;

  ItaniumParser(String s, int start, boolean verbose) {
    this.s = s;
    this.pos = start;
    this.verbose = verbose;
  }

  int position() {
    return pos;
  }

  // ---- characters ----

  private char peek() {
    return pos < s.length() ? s.charAt(pos) : '\0';
  }

  private char peek(int ahead) {
    return pos + ahead < s.length() ? s.charAt(pos + ahead) : '\0';
  }

  private boolean eat(char c) {
    if (peek() == c) {
      pos++;
      return true;
    }
    return false;
  }

  private boolean eat(String prefix) {
    if (s.startsWith(prefix, pos)) {
      pos += prefix.length();
      return true;
    }
    return false;
  }

  private void expect(char c) {
    if (!eat(c)) {
      throw FAIL;
    }
  }

  private void enter() {
    if (++recursion > MAX_RECURSION || ++steps > MAX_STEPS) {
      throw FAIL;
    }
  }

  private void leave() {
    recursion--;
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

  /** A decimal number, optionally negative ({@code n}); bounded to an int. */
  private int number() {
    boolean negative = eat('n');
    if (!isDigit(peek())) {
      throw FAIL;
    }
    long v = 0;
    while (isDigit(peek())) {
      v = v * 10 + (s.charAt(pos++) - '0');
      if (v > Integer.MAX_VALUE) {
        throw FAIL;
      }
    }
    return negative ? (int) -v : (int) v;
  }

  /** {@code [seq-id] _}: base 36 digits and upper case letters; 0 when empty, else value + 1. */
  private int seqId() {
    if (eat('_')) {
      return 0;
    }
    long v = 0;
    while (true) {
      char c = peek();
      int d;
      if (isDigit(c)) {
        d = c - '0';
      } else if (isUpper(c)) {
        d = c - 'A' + 10;
      } else {
        break;
      }
      pos++;
      v = v * 36 + d;
      if (v > Integer.MAX_VALUE) {
        throw FAIL;
      }
    }
    expect('_');
    return (int) v + 1;
  }

  /** {@code [number] _}: 0 when empty, else number + 1. */
  private int discriminatorNumber() {
    if (eat('_')) {
      return 0;
    }
    int n = number();
    if (n < 0) {
      throw FAIL;
    }
    expect('_');
    return n + 1;
  }

  private void addSub(Node n) {
    if (subs.size() >= MAX_SUBSTITUTIONS) {
      throw FAIL;
    }
    subs.add(n);
  }

  // ---- top level ----

  /**
   * {@code <encoding>} after {@code _Z}. With {@code params} false only the name is read (the
   * {@code c++filt -p} form); the rest of the input is then ignored.
   */
  Node encoding(boolean params, boolean topLevel) {
    enter();
    try {
      char c = peek();
      if (c == 'G' || c == 'T') {
        return specialName();
      }
      Node name = name(true);
      if (topLevel && !params) {
        return name;
      }
      if (pos >= s.length() || peek() == 'E') {
        return name;
      }
      boolean ret = hasReturnType(name);
      Node retType = null;
      if (ret) {
        retType = type();
      }
      Node[] ps = bareFunctionTypeParams();
      return new Encoding(retType, stripQuals(name), ps, methodQuals(name), templateArgsOf(name));
    } finally {
      leave();
    }
  }

  /** A name that carries method qualifiers (const, &, &&) for its function. */
  private static final class QualifiedName extends Node {
    final Node name;
    final String quals;

    /** Printed with the name when no parameter list takes them (libiberty's default args). */
    final boolean printQuals;

    QualifiedName(Node name, String quals, boolean printQuals) {
      super(name);
      this.name = name;
      this.quals = quals;
      this.printQuals = printQuals;
    }

    @Override
    void left(Printer p) {
      name.print(p);
      if (printQuals) {
        p.append(quals);
      }
    }
  }

  private static Node stripQuals(Node name) {
    if (name instanceof QualifiedName) {
      return ((QualifiedName) name).name;
    }
    if (name instanceof Local && ((Local) name).entity instanceof QualifiedName) {
      Local l = (Local) name;
      return new Local(l.encoding, ((QualifiedName) l.entity).name);
    }
    return name;
  }

  private static String methodQuals(Node name) {
    if (name instanceof QualifiedName) {
      return ((QualifiedName) name).quals;
    }
    if (name instanceof Local && ((Local) name).entity instanceof QualifiedName) {
      return ((QualifiedName) ((Local) name).entity).quals;
    }
    return "";
  }

  /** The arguments of a function template's name (after a local name's prefix), or null. */
  private static Node[] templateArgsOf(Node name) {
    if (name instanceof QualifiedName) {
      name = ((QualifiedName) name).name;
    }
    if (name instanceof Local) {
      name = ((Local) name).entity;
      if (name instanceof Prefixed && ((Prefixed) name).prefix.startsWith("{default arg#")) {
        name = ((Prefixed) name).node;
      }
      if (name instanceof QualifiedName) {
        name = ((QualifiedName) name).name;
      }
    }
    return name instanceof Template ? ((Template) name).args.args : null;
  }

  private static boolean hasReturnType(Node name) {
    if (name instanceof QualifiedName) {
      return hasReturnType(((QualifiedName) name).name);
    }
    if (name instanceof Local) {
      return hasReturnType(((Local) name).entity);
    }
    if (name instanceof Template) {
      return !isCtorDtorConversion(((Template) name).name);
    }
    return false;
  }

  private static boolean isCtorDtorConversion(Node n) {
    while (true) {
      if (n instanceof Nested) {
        n = ((Nested) n).name;
      } else if (n instanceof Local) {
        n = ((Local) n).entity;
      } else if (n instanceof Suffixed && ((Suffixed) n).suffix.startsWith("[abi:")) {
        n = ((Suffixed) n).node;
      } else {
        return n instanceof CtorDtor || n instanceof Conversion;
      }
    }
  }

  private Node[] bareFunctionTypeParams() {
    List<Node> ps = new ArrayList<>();
    while (pos < s.length() && peek() != 'E' && peek() != '.') {
      ps.add(type());
    }
    if (ps.isEmpty()) {
      throw FAIL;
    }
    return ps.toArray(new Node[0]);
  }

  private Node specialName() {
    if (eat('T')) {
      char c = s.length() > pos ? s.charAt(pos++) : '\0';
      switch (c) {
        case 'V':
          return new Prefixed("vtable for ", type());
        case 'T':
          return new Prefixed("VTT for ", type());
        case 'I':
          return new Prefixed("typeinfo for ", type());
        case 'S':
          return new Prefixed("typeinfo name for ", type());
        case 'F':
          return new Prefixed("typeinfo fn for ", type());
        case 'J':
          return new Prefixed("java Class for ", type());
        case 'h':
          callOffset('h');
          return new Prefixed("non-virtual thunk to ", encoding(true, false));
        case 'v':
          callOffset('v');
          return new Prefixed("virtual thunk to ", encoding(true, false));
        case 'c':
          callOffset(next());
          callOffset(next());
          return new Prefixed("covariant return thunk to ", encoding(true, false));
        case 'C':
          {
            Node derived = type();
            int offset = number();
            if (offset < 0) {
              throw FAIL;
            }
            expect('_');
            Node base = type();
            return new ConstructionVtable(base, derived);
          }
        case 'H':
          return new Prefixed("TLS init function for ", name(false));
        case 'W':
          return new Prefixed("TLS wrapper function for ", name(false));
        case 'A':
          return new Prefixed("template parameter object for ", templateArg());
        default:
          throw FAIL;
      }
    }
    expect('G');
    char c = s.length() > pos ? s.charAt(pos++) : '\0';
    switch (c) {
      case 'V':
        return new Prefixed("guard variable for ", name(false));
      case 'R':
        {
          // libiberty reads a plain number here (no seq-id, no closing _)
          Node n = name(false);
          int start = pos;
          while (isDigit(peek()) && pos - start < 9) {
            pos++;
          }
          String seq =
              pos == start ? "0" : Integer.toString(Integer.parseInt(s.substring(start, pos)));
          return new Prefixed("reference temporary #" + seq + " for ", n);
        }
      case 'A':
        return new Prefixed("hidden alias for ", encoding(true, false));
      case 'T':
        if (eat('n')) {
          return new Prefixed("non-transaction clone for ", encoding(true, false));
        }
        eat('t');
        return new Prefixed("transaction clone for ", encoding(true, false));
      case 'r':
        throw FAIL;
      default:
        throw FAIL;
    }
  }

  private char next() {
    if (pos >= s.length()) {
      throw FAIL;
    }
    return s.charAt(pos++);
  }

  private void callOffset(char kind) {
    if (kind == 'h') {
      number();
      expect('_');
    } else if (kind == 'v') {
      number();
      expect('_');
      number();
      expect('_');
    } else {
      throw FAIL;
    }
  }

  // ---- names ----

  /** {@code <name>}: nested, local, unscoped or unscoped template. */
  private Node name(boolean tagTemplates) {
    enter();
    try {
      char c = peek();
      if (c == 'N') {
        return nestedName(tagTemplates);
      }
      if (c == 'Z') {
        return localName(tagTemplates);
      }
      if (c == 'S' && peek(1) != 't') {
        // a substitution that names a template: S_ I...E
        Node sub = substitution(false);
        if (peek() != 'I') {
          throw FAIL;
        }
        return new Template(sub, templateArgs(tagTemplates));
      }
      Node n;
      if (c == 'S') {
        pos += 2;
        eat('L');
        n = new Nested(new Name("std"), unqualifiedName());
      } else {
        eat('L');
        n = unqualifiedName();
      }
      if (peek() == 'I') {
        addSub(n);
        n = new Template(n, templateArgs(tagTemplates));
      }
      return n;
    } finally {
      leave();
    }
  }

  private Node nestedName(boolean tagTemplates) {
    expect('N');
    StringBuilder quals = new StringBuilder();
    cvQualifiers(quals);
    if (eat('R')) {
      quals.append(" &");
    } else if (eat('O')) {
      quals.append(" &&");
    }
    Node n = null;
    while (!eat('E')) {
      char c = peek();
      eat('L'); // internal linkage
      c = peek();
      Node component;
      if (c == 'S' && peek(1) == 't') {
        if (n != null) {
          throw FAIL;
        }
        pos += 2;
        n = new Name("std");
        continue;
      } else if (c == 'S') {
        if (n != null) {
          throw FAIL;
        }
        n = substitution(true);
        continue;
      } else if (c == 'I') {
        if (n == null) {
          throw FAIL;
        }
        n = new Template(n, templateArgs(tagTemplates));
        if (peek() != 'E') {
          addSub(n);
        }
        continue;
      } else if (c == 'T') {
        if (n != null) {
          throw FAIL;
        }
        n = templateParam();
        if (peek() != 'E') {
          addSub(n);
        }
        continue;
      } else if (c == 'D' && (peek(1) == 't' || peek(1) == 'T')) {
        if (n != null) {
          throw FAIL;
        }
        n = decltype();
        if (peek() != 'E') {
          addSub(n);
        }
        continue;
      } else if (c == 'M') {
        // closure-prefix data member initializer: ignored
        pos++;
        if (n == null) {
          throw FAIL;
        }
        continue;
      } else if (c == 'C' || (c == 'D' && peek(1) != 'C')) {
        if (n == null) {
          throw FAIL;
        }
        component = ctorDtorName();
      } else {
        component = unqualifiedName();
      }
      n = n == null ? component : new Nested(n, component);
      if (peek() != 'E') {
        addSub(n);
      }
    }
    if (n == null) {
      throw FAIL;
    }
    return quals.length() > 0 ? new QualifiedName(n, quals.toString(), false) : n;
  }

  private void cvQualifiers(StringBuilder quals) {
    // printed in the order restrict, volatile, const after the mangled order r V K
    boolean r = eat('r');
    boolean v = eat('V');
    boolean k = eat('K');
    if (k) {
      quals.append(" const");
    }
    if (v) {
      quals.append(" volatile");
    }
    if (r) {
      quals.append(" restrict");
    }
  }

  private Node localName(boolean tagTemplates) {
    expect('Z');
    Node enc = encoding(true, false);
    expect('E');
    if (enc instanceof Encoding) {
      // libiberty leaves out the return type of the function a local entity is in
      enc = ((Encoding) enc).withoutReturnType();
    }
    if (eat('s')) {
      discriminator();
      return new Local(enc, new Text("string literal"));
    }
    if (eat('d')) {
      int n = eat('_') ? 0 : number() + 1;
      if (n > 0) {
        expect('_');
      }
      Node entity = name(tagTemplates);
      String prefix = "{default arg#" + (n + 1) + "}::";
      if (entity instanceof QualifiedName) {
        QualifiedName q = (QualifiedName) entity;
        return new Local(enc, new QualifiedName(new Prefixed(prefix, q.name), q.quals, true));
      }
      return new Local(enc, new Prefixed(prefix, entity));
    }
    Node entity = name(tagTemplates);
    discriminator();
    return new Local(enc, entity);
  }

  private void discriminator() {
    if (peek() != '_') {
      return;
    }
    pos++;
    if (eat('_')) {
      number();
      expect('_');
    } else if (isDigit(peek())) {
      pos++;
    } else {
      throw FAIL;
    }
  }

  /** A constructor or destructor: prints the last source name read. */
  private static final class CtorDtor extends Node {
    final Node name;
    final boolean dtor;

    CtorDtor(Node name, boolean dtor) {
      super(name);
      this.name = name;
      this.dtor = dtor;
    }

    @Override
    void left(Printer p) {
      if (dtor) {
        p.append('~');
      }
      name.print(p);
    }
  }

  private Node ctorDtorName() {
    Node last = lastName;
    if (last == null) {
      throw FAIL;
    }
    if (eat('C')) {
      boolean inheriting = eat('I');
      char k = next();
      if (k < '1' || k > '5') {
        throw FAIL;
      }
      if (inheriting) {
        // an inheriting constructor is named after the base, the last name of its type
        type();
        last = lastName;
      }
      return abiTags(new CtorDtor(last, false));
    }
    expect('D');
    char k = next();
    if (k != '0' && k != '1' && k != '2' && k != '4' && k != '5') {
      throw FAIL;
    }
    return abiTags(new CtorDtor(last, true));
  }

  /** {@code cv type}: {@code operator int}. */
  private static final class Conversion extends Node {
    final Node type;

    Conversion(Node type) {
      super(type);
      this.type = type;
    }

    @Override
    void left(Printer p) {
      p.append("operator ");
      // the type may name the arguments of the template this operator is the name of
      Printer.Frame saved = p.templates;
      if (p.currentTemplate != null) {
        p.templates = new Printer.Frame(p.currentTemplate.args.args, saved);
      }
      type.print(p);
      p.templates = saved;
    }
  }

  private Node unqualifiedName() {
    enter();
    try {
      char c = peek();
      Node n;
      if (isDigit(c)) {
        n = sourceName();
      } else if (c == 'U') {
        n = unnamedTypeName();
      } else if (c == 'D' && peek(1) == 'C') {
        pos += 2;
        List<Node> names = new ArrayList<>();
        while (!eat('E')) {
          names.add(sourceName());
        }
        n =
            new Expr(
                (p, parts) -> {
                  p.append('[');
                  Nodes.printList(p, parts);
                  p.append(']');
                },
                names.toArray(new Node[0]));
      } else if (isLower(c)) {
        n = operatorName();
      } else if (c == 'C' || c == 'D') {
        n = ctorDtorName();
        return n;
      } else {
        throw FAIL;
      }
      return abiTags(n);
    } finally {
      leave();
    }
  }

  private Node abiTags(Node n) {
    while (eat('B')) {
      String tag = identifier();
      n = new Suffixed(n, "[abi:" + tag + "]");
    }
    return n;
  }

  private String identifier() {
    int len = number();
    if (len <= 0 || len > s.length() - pos) {
      throw FAIL;
    }
    String id = s.substring(pos, pos + len);
    pos += len;
    return id;
  }

  private Node sourceName() {
    String id = identifier();
    Node n;
    if (id.length() >= 10
        && id.startsWith("_GLOBAL_")
        && (id.charAt(8) == '.' || id.charAt(8) == '_' || id.charAt(8) == '$')
        && id.charAt(9) == 'N') {
      n = new Name("(anonymous namespace)");
    } else {
      n = new Name(id);
    }
    lastName = n;
    return n;
  }

  private Node unnamedTypeName() {
    expect('U');
    if (eat('t')) {
      int n = discriminatorNumber();
      return new Text("{unnamed type#" + (n + 1) + "}");
    }
    if (eat('l')) {
      Node[] params = bareFunctionTypeParams();
      expect('E');
      int n = discriminatorNumber();
      return new Lambda(params, n + 1);
    }
    // vendor extension U <source-name>
    throw FAIL;
  }

  private static final String[][] OPERATORS = {
    {"nw", "new", "3"},
    {"na", "new[]", "3"},
    {"dl", "delete", "1"},
    {"da", "delete[]", "1"},
    {"ps", "+", "1"},
    {"ng", "-", "1"},
    {"ad", "&", "1"},
    {"de", "*", "1"},
    {"co", "~", "1"},
    {"pl", "+", "2"},
    {"mi", "-", "2"},
    {"ml", "*", "2"},
    {"dv", "/", "2"},
    {"rm", "%", "2"},
    {"an", "&", "2"},
    {"or", "|", "2"},
    {"eo", "^", "2"},
    {"aS", "=", "2"},
    {"pL", "+=", "2"},
    {"mI", "-=", "2"},
    {"mL", "*=", "2"},
    {"dV", "/=", "2"},
    {"rM", "%=", "2"},
    {"aN", "&=", "2"},
    {"oR", "|=", "2"},
    {"eO", "^=", "2"},
    {"ls", "<<", "2"},
    {"rs", ">>", "2"},
    {"lS", "<<=", "2"},
    {"rS", ">>=", "2"},
    {"eq", "==", "2"},
    {"ne", "!=", "2"},
    {"lt", "<", "2"},
    {"gt", ">", "2"},
    {"le", "<=", "2"},
    {"ge", ">=", "2"},
    {"ss", "<=>", "2"},
    {"nt", "!", "1"},
    {"aa", "&&", "2"},
    {"oo", "||", "2"},
    {"pp", "++", "1"},
    {"mm", "--", "1"},
    {"cm", ",", "2"},
    {"pm", "->*", "2"},
    {"pt", "->", "2"},
    {"cl", "()", "2"},
    {"ix", "[]", "2"},
    {"qu", "?", "3"},
    {"st", "sizeof ", "1"},
    {"sz", "sizeof ", "1"},
    {"at", "alignof ", "1"},
    {"az", "alignof ", "1"},
    {"nx", "noexcept", "1"},
    {"dt", ".", "2"},
    {"ds", ".*", "2"},
    {"sZ", "sizeof...", "1"},
    {"sP", "sizeof...", "1"},
    {"tw", "throw", "1"},
    {"tr", "throw", "0"},
    {"gs", "::", "1"},
    {"ti", "typeid ", "1"},
    {"te", "typeid ", "1"},
    {"dc", "dynamic_cast", "2"},
    {"sc", "static_cast", "2"},
    {"cc", "const_cast", "2"},
    {"rc", "reinterpret_cast", "2"},
    {"aw", "co_await", "1"},
  };

  private static String[] findOperator(String code) {
    for (String[] op : OPERATORS) {
      if (op[0].equals(code)) {
        return op;
      }
    }
    return null;
  }

  private Node operatorName() {
    if (eat("cv")) {
      // the conversion's type may refer to template arguments that follow
      boolean saved = inConversion;
      inConversion = true;
      try {
        return new Conversion(type());
      } finally {
        inConversion = saved;
      }
    }
    if (eat("li")) {
      return new Prefixed("operator\"\" ", sourceName());
    }
    if (peek() == 'v' && isDigit(peek(1))) {
      pos += 2;
      return new Prefixed("operator ", sourceName());
    }
    if (pos + 2 > s.length()) {
      throw FAIL;
    }
    String[] op = findOperator(s.substring(pos, pos + 2));
    if (op == null) {
      throw FAIL;
    }
    pos += 2;
    String name = op[1];
    return new Text(isLower(name.charAt(0)) ? "operator " + name : "operator" + name);
  }

  // ---- substitutions ----

  private Node substitution(boolean prefix) {
    expect('S');
    char c = peek();
    if (c == '_' || isDigit(c) || isUpper(c)) {
      int id = seqId();
      if (id >= subs.size()) {
        throw FAIL;
      }
      return subs.get(id);
    }
    pos++;
    boolean full = verbose || (prefix && (peek() == 'C' || peek() == 'D'));
    String text;
    String last;
    switch (c) {
      case 't':
        return new Name("std");
      case 'a':
        text = "std::allocator";
        last = "allocator";
        break;
      case 'b':
        text = "std::basic_string";
        last = "basic_string";
        break;
      case 's':
        text =
            full
                ? "std::basic_string<char, std::char_traits<char>, std::allocator<char> >"
                : "std::string";
        last = "basic_string";
        break;
      case 'i':
        text = full ? "std::basic_istream<char, std::char_traits<char> >" : "std::istream";
        last = "basic_istream";
        break;
      case 'o':
        text = full ? "std::basic_ostream<char, std::char_traits<char> >" : "std::ostream";
        last = "basic_ostream";
        break;
      case 'd':
        text = full ? "std::basic_iostream<char, std::char_traits<char> >" : "std::iostream";
        last = "basic_iostream";
        break;
      default:
        throw FAIL;
    }
    lastName = new Name(last);
    return new Text(text);
  }

  // ---- template arguments ----

  private TemplateArgs templateArgs(boolean tag) {
    expect('I');
    Node savedLast = lastName;
    List<Node> args = new ArrayList<>();
    while (!eat('E')) {
      args.add(templateArg());
    }
    lastName = savedLast;
    return new TemplateArgs(args.toArray(new Node[0]));
  }

  private Node templateArg() {
    enter();
    try {
      char c = peek();
      if (c == 'X') {
        pos++;
        Node e = expression();
        expect('E');
        return e;
      }
      if (c == 'L') {
        return exprPrimary();
      }
      if (c == 'J' || c == 'I') {
        pos++;
        List<Node> elements = new ArrayList<>();
        while (!eat('E')) {
          elements.add(templateArg());
        }
        return new ArgPack(elements.toArray(new Node[0]));
      }
      return type();
    } finally {
      leave();
    }
  }

  private Node templateParam() {
    expect('T');
    int index = eat('_') ? 0 : number() + 1;
    if (index > 0) {
      expect('_');
    }
    return new TemplateParam(index);
  }

  // ---- types ----

  private static String builtin(char c) {
    switch (c) {
      case 'v':
        return "void";
      case 'w':
        return "wchar_t";
      case 'b':
        return "bool";
      case 'c':
        return "char";
      case 'a':
        return "signed char";
      case 'h':
        return "unsigned char";
      case 's':
        return "short";
      case 't':
        return "unsigned short";
      case 'i':
        return "int";
      case 'j':
        return "unsigned int";
      case 'l':
        return "long";
      case 'm':
        return "unsigned long";
      case 'x':
        return "long long";
      case 'y':
        return "unsigned long long";
      case 'n':
        return "__int128";
      case 'o':
        return "unsigned __int128";
      case 'f':
        return "float";
      case 'd':
        return "double";
      case 'e':
        return "long double";
      case 'g':
        return "__float128";
      case 'z':
        return "...";
      default:
        return null;
    }
  }

  private static String builtinD(char c) {
    switch (c) {
      case 'd':
        return "decimal64";
      case 'e':
        return "decimal128";
      case 'f':
        return "decimal32";
      case 'h':
        return "half";
      case 'i':
        return "char32_t";
      case 's':
        return "char16_t";
      case 'u':
        return "char8_t";
      case 'a':
        return "auto";
      case 'c':
        return "decltype(auto)";
      case 'n':
        return "decltype(nullptr)";
      default:
        return null;
    }
  }

  Node type() {
    enter();
    try {
      return type0();
    } finally {
      leave();
    }
  }

  private Node type0() {
    char c = peek();
    String b = builtin(c);
    if (b != null) {
      pos++;
      return new Text(b);
    }
    Node t;
    switch (c) {
      case 'r':
      case 'V':
      case 'K':
        {
          StringBuilder quals = new StringBuilder();
          cvQualifiers(quals);
          if (peek() == 'F') {
            t = functionType(quals.toString());
          } else {
            Node inner = type();
            t = new Qualified(inner, quals.toString());
          }
          break;
        }
      case 'U':
        {
          pos++;
          String q = identifier();
          if (peek() == 'I') {
            // vendor qualifier with template arguments: not supported
            throw FAIL;
          }
          Node inner = type();
          t = new Qualified(inner, " " + q);
          break;
        }
      case 'P':
        pos++;
        t = new Pointer(type(), "*");
        break;
      case 'R':
        pos++;
        t = new Pointer(type(), "&");
        break;
      case 'O':
        pos++;
        t = new Pointer(type(), "&&");
        break;
      case 'C':
        pos++;
        t = new Qualified(type(), " _Complex");
        break;
      case 'G':
        pos++;
        t = new Qualified(type(), " _Imaginary");
        break;
      case 'F':
        t = functionType("");
        break;
      case 'A':
        t = arrayType();
        break;
      case 'M':
        {
          pos++;
          Node cls = type();
          Node member = type();
          t = new MemberPointer(cls, member);
          break;
        }
      case 'T':
        {
          t = templateParam();
          if (peek() == 'I') {
            if (!inConversion) {
              addSub(t);
              t = new Template(t, templateArgs(false));
            } else {
              // in a conversion operator's type, T_ I..E is a template template parameter only
              // when a second argument list follows (the first is the operator's)
              int savedPos = pos;
              int savedSubs = subs.size();
              Node savedLast = lastName;
              TemplateArgs args = templateArgs(false);
              if (peek() == 'I') {
                addSub(t);
                t = new Template(t, args);
              } else {
                pos = savedPos;
                while (subs.size() > savedSubs) {
                  subs.remove(subs.size() - 1);
                }
                lastName = savedLast;
              }
            }
          }
          break;
        }
      case 'S':
        {
          if (peek(1) == 't') {
            t = name(false);
            break;
          }
          Node sub = substitution(false);
          if (peek() == 'I') {
            t = new Template(sub, templateArgs(false));
            break;
          }
          return sub;
        }
      case 'u':
        {
          pos++;
          t = sourceName();
          break;
        }
      case 'D':
        {
          char d = peek(1);
          String bd = builtinD(d);
          if (bd != null) {
            pos += 2;
            return new Text(bd);
          }
          if (d == 'F') {
            pos += 2;
            int bits = number();
            if (eat('x')) {
              return new Text("_Float" + bits + "x");
            }
            if (eat('b')) {
              return new Text("std::bfloat16_t");
            }
            expect('_');
            return new Text("_Float" + bits);
          }
          if (d == 't' || d == 'T') {
            t = decltype();
            break;
          }
          if (d == 'p') {
            pos += 2;
            t = new PackExpansion(type());
            break;
          }
          if (d == 'v') {
            pos += 2;
            Node dim;
            if (eat('_')) {
              dim = expression();
            } else {
              dim = new Text(Integer.toString(number()));
            }
            expect('_');
            t = new Vector(type(), dim);
            break;
          }
          if (d == 'x' || d == 'o' || d == 'O' || d == 'w') {
            t = functionType("");
            break;
          }
          throw FAIL;
        }
      case 'N':
      case 'Z':
      case '0':
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
      case '7':
      case '8':
      case '9':
        t = name(false);
        break;
      default:
        throw FAIL;
    }
    addSub(t);
    return t;
  }

  private Node decltype() {
    expect('D');
    char k = next();
    if (k != 't' && k != 'T') {
      throw FAIL;
    }
    Node e = expression();
    expect('E');
    return new Expr(
        (p, parts) -> {
          p.append("decltype (");
          parts[0].print(p);
          p.append(')');
        },
        e);
  }

  private Node functionType(String cvQuals) {
    StringBuilder quals = new StringBuilder(cvQuals);
    // exception specifications before F
    Node exception = null;
    if (eat("Do")) {
      exception = new Text(" noexcept");
    } else if (eat("DO")) {
      Node e = expression();
      expect('E');
      exception =
          new Expr(
              (p, parts) -> {
                p.append(" noexcept(");
                parts[0].print(p);
                p.append(')');
              },
              e);
    } else if (eat("Dw")) {
      List<Node> ts = new ArrayList<>();
      while (!eat('E')) {
        if (pos >= s.length()) {
          throw FAIL;
        }
        ts.add(type());
      }
      exception =
          new Expr(
              (p, parts) -> {
                p.append(" throw(");
                Nodes.printList(p, parts);
                p.append(')');
              },
              ts.toArray(new Node[0]));
    }
    boolean txSafe = eat("Dx");
    expect('F');
    eat('Y'); // extern "C"
    Node ret = type();
    List<Node> params = new ArrayList<>();
    String ref = "";
    while (true) {
      if (eat('E')) {
        break;
      }
      if (peek() == 'R' && peek(1) == 'E') {
        pos += 2;
        ref = " &";
        break;
      }
      if (peek() == 'O' && peek(1) == 'E') {
        pos += 2;
        ref = " &&";
        break;
      }
      if (pos >= s.length()) {
        throw FAIL;
      }
      params.add(type());
    }
    if (params.isEmpty()) {
      throw FAIL;
    }
    quals.append(ref);
    if (txSafe) {
      quals.append(" transaction_safe");
    }
    return new Function(ret, params.toArray(new Node[0]), quals.toString(), exception);
  }

  private Node arrayType() {
    expect('A');
    Node dim;
    if (eat('_')) {
      dim = null;
    } else if (isDigit(peek())) {
      int start = pos;
      while (isDigit(peek())) {
        pos++;
      }
      dim = new Text(s.substring(start, pos));
      expect('_');
    } else {
      dim = expression();
      expect('_');
    }
    return new Array(type(), dim);
  }

  // ---- expressions ----

  private Node exprPrimary() {
    expect('L');
    if (peek() == '_' && peek(1) == 'Z') {
      pos += 2;
      Node e = encoding(true, false);
      expect('E');
      return e;
    }
    if (peek() == 'Z') {
      pos++;
      Node e = encoding(true, false);
      expect('E');
      return e;
    }
    Node t = type();
    String tn = t instanceof Text ? ((Text) t).text : null;
    if ("decltype(nullptr)".equals(tn) && eat('E')) {
      return t;
    }
    boolean negative = eat('n');
    int start = pos;
    while (peek() != 'E') {
      if (pos >= s.length()) {
        throw FAIL;
      }
      pos++;
    }
    String value = s.substring(start, pos);
    pos++;
    if (tn != null) {
      String suffix = null;
      switch (tn) {
        case "int":
          suffix = "";
          break;
        case "unsigned int":
          suffix = "u";
          break;
        case "long":
          suffix = "l";
          break;
        case "unsigned long":
          suffix = "ul";
          break;
        case "long long":
          suffix = "ll";
          break;
        case "unsigned long long":
          suffix = "ull";
          break;
        case "bool":
          if (!negative && value.equals("0")) {
            return new Text("false");
          }
          if (!negative && value.equals("1")) {
            return new Text("true");
          }
          break;
        default:
          break;
      }
      if (suffix != null) {
        return new Literal((negative ? "-" : "") + value + suffix);
      }
    }
    boolean isFloat =
        "float".equals(tn)
            || "double".equals(tn)
            || "long double".equals(tn)
            || "__float128".equals(tn);
    String v = (negative ? "-" : "") + (isFloat ? "[" + value + "]" : value);
    return new Expr(
        (p, parts) -> {
          p.append('(');
          parts[0].print(p);
          p.append(')');
          p.append(v);
        },
        t);
  }

  /** A literal printed as its value. */
  static final class Literal extends Node {
    final String text;

    Literal(String text) {
      this.text = text;
    }

    @Override
    void left(Printer p) {
      p.append(text);
    }
  }

  private Node[] exprList(char end) {
    List<Node> es = new ArrayList<>();
    while (!eat(end)) {
      if (pos >= s.length()) {
        throw FAIL;
      }
      es.add(expression());
    }
    return es.toArray(new Node[0]);
  }

  Node expression() {
    enter();
    try {
      return expression0();
    } finally {
      leave();
    }
  }

  private Node expression0() {
    char c = peek();
    char c1 = peek(1);
    if (c == 'L') {
      return exprPrimary();
    }
    if (c == 'T') {
      return templateParam();
    }
    if (c == 's' && c1 == 'r') {
      return unresolvedName();
    }
    if (c == 's' && c1 == 'p') {
      pos += 2;
      return new PackExpansion(expression());
    }
    if (c == 'f' && c1 == 'p') {
      pos += 2;
      StringBuilder q = new StringBuilder();
      cvQualifiers(q);
      if (eat('_')) {
        return new FunctionParam("1");
      }
      int n = number();
      if (n < 0) {
        throw FAIL;
      }
      expect('_');
      return new FunctionParam(Integer.toString(n + 2));
    }
    if (c == 'f' && c1 == 'L') {
      pos += 2;
      number();
      expect('p');
      StringBuilder q = new StringBuilder();
      cvQualifiers(q);
      if (eat('_')) {
        return new FunctionParam("1");
      }
      int n = number();
      expect('_');
      return new FunctionParam(Integer.toString(n + 2));
    }
    if (isDigit(c) || (c == 'o' && c1 == 'n')) {
      if (c == 'o') {
        pos += 2;
      }
      Node n = unqualifiedName();
      if (peek() == 'I') {
        n = new Template(n, templateArgs(false));
      }
      return n;
    }
    if (c == 'i' && c1 == 'l') {
      pos += 2;
      return new InitList(null, exprList('E'));
    }
    if (c == 't' && c1 == 'l') {
      pos += 2;
      Node t = type();
      return new InitList(t, exprList('E'));
    }
    if (c == 'd' && c1 == 'i') {
      throw FAIL;
    }
    if (pos + 2 > s.length()) {
      throw FAIL;
    }
    String code = s.substring(pos, pos + 2);
    if (code.equals("cv")) {
      pos += 2;
      Node t = type();
      Node[] args;
      if (eat('_')) {
        args = exprList('E');
      } else {
        args = new Node[] {expression()};
      }
      return new Expr(
          (p, parts) -> {
            p.append('(');
            parts[0].print(p);
            p.append(")(");
            Node[] rest = new Node[parts.length - 1];
            System.arraycopy(parts, 1, rest, 0, rest.length);
            Nodes.printList(p, rest);
            p.append(')');
          },
          Nodes.concat(t, args));
    }
    if (code.equals("at") || code.equals("nx")) {
      // c++filt 2.40 refuses these in expressions
      throw FAIL;
    }
    if (code.equals("st") || code.equals("at")) {
      pos += 2;
      String op = code.equals("st") ? "sizeof " : "alignof ";
      return new Expr(
          (p, parts) -> {
            p.append(op).append('(');
            parts[0].print(p);
            p.append(')');
          },
          type());
    }
    if (code.equals("sP")) {
      pos += 2;
      List<Node> args = new ArrayList<>();
      while (!eat('E')) {
        if (pos >= s.length()) {
          throw FAIL;
        }
        args.add(templateArg());
      }
      int n = args.size();
      return new Expr((p, parts) -> p.append(Integer.toString(n)), args.toArray(new Node[0]));
    }
    if (code.equals("sZ")) {
      pos += 2;
      Node e = templateArgOrParam();
      if (e instanceof TemplateParam) {
        // libiberty prints the length of the pack the parameter names (0 for no pack)
        return new Expr(
            (p, parts) -> {
              Node r = parts[0].resolve(p);
              p.append(Integer.toString(r instanceof ArgPack ? ((ArgPack) r).elements.length : 0));
            },
            e);
      }
      return new Expr(
          (p, parts) -> {
            p.append("sizeof...(");
            parts[0].print(p);
            p.append(')');
          },
          e);
    }
    if (code.equals("dc") || code.equals("sc") || code.equals("cc") || code.equals("rc")) {
      pos += 2;
      String op = findOperator(code)[1];
      Node t = type();
      Node e = expression();
      return new Expr(
          (p, parts) -> {
            p.append(op).append('<');
            parts[0].print(p);
            p.append(">(");
            parts[1].print(p);
            p.append(')');
          },
          t,
          e);
    }
    if (code.equals("cl")) {
      pos += 2;
      Node f = expression();
      Node[] args = exprList('E');
      return new Expr(
          (p, parts) -> {
            if (parts[0] instanceof Encoding) {
              // a function called in an expression: its name, not its parameter types
              ((Encoding) parts[0]).name.print(p);
            } else {
              subexpr(p, parts[0]);
            }
            p.append('(');
            Node[] rest = new Node[parts.length - 1];
            System.arraycopy(parts, 1, rest, 0, rest.length);
            Nodes.printList(p, rest);
            p.append(')');
          },
          Nodes.concat(f, args));
    }
    if (code.equals("dt") || code.equals("pt")) {
      pos += 2;
      String op = code.equals("dt") ? "." : "->";
      Node obj = expression();
      Node member = unresolvedNameTail();
      return new Expr(
          (p, parts) -> {
            subexpr(p, parts[0]);
            p.append(op);
            parts[1].print(p);
          },
          obj,
          member);
    }
    if (code.equals("gs")) {
      pos += 2;
      Node e = expression();
      return new Expr(
          (p, parts) -> {
            p.append("::");
            parts[0].print(p);
          },
          e);
    }
    if (code.equals("nw")
        || code.equals("na")
        || code.equals("dl")
        || code.equals("da")
        || code.equals("tw")
        || code.equals("tr")
        || code.equals("ti")
        || code.equals("te")) {
      throw FAIL;
    }
    String[] op = findOperator(code);
    if (op == null) {
      throw FAIL;
    }
    pos += 2;
    String name = op[1];
    switch (op[2]) {
      case "1":
        {
          if ((code.equals("pp") || code.equals("mm")) && !eat('_')) {
            // postfix without _, prefix with it
            Node e = expression();
            return new Expr(
                (p, parts) -> {
                  subexpr(p, parts[0]);
                  p.append(name);
                },
                e);
          }
          Node e = expression();
          return new Expr(
              (p, parts) -> {
                p.append(name);
                subexpr(p, parts[0]);
              },
              e);
        }
      case "2":
        {
          Node l = expression();
          Node r = expression();
          boolean gt = name.equals(">");
          if (code.equals("ix")) {
            return new Expr(
                (p, parts) -> {
                  subexpr(p, parts[0]);
                  p.append('[');
                  parts[1].print(p);
                  p.append(']');
                },
                l,
                r);
          }
          return new Expr(
              (p, parts) -> {
                if (gt) {
                  p.append('(');
                }
                subexpr(p, parts[0]);
                p.append(name);
                subexpr(p, parts[1]);
                if (gt) {
                  p.append(')');
                }
              },
              l,
              r);
        }
      case "3":
        {
          Node a = expression();
          Node b2 = expression();
          Node c3 = expression();
          return new Expr(
              (p, parts) -> {
                subexpr(p, parts[0]);
                p.append('?');
                subexpr(p, parts[1]);
                p.append(" : ");
                subexpr(p, parts[2]);
              },
              a,
              b2,
              c3);
        }
      default:
        throw FAIL;
    }
  }

  private Node templateArgOrParam() {
    if (peek() == 'T') {
      return templateParam();
    }
    if (peek() == 'f' && peek(1) == 'p') {
      return expression();
    }
    return templateArg();
  }

  private static void subexpr(Printer p, Node n) {
    Nodes.subexpr(p, n);
  }

  /**
   * {@code sr ...}: a name not yet resolved to a declaration. Read as libiberty does: first as
   * {@code sr <qualifier-level>+ E <base-name>}, then, when that fails, as the older {@code sr
   * <type> <base-name>}.
   */
  private Node unresolvedName() {
    expect('s');
    expect('r');
    char c = peek();
    if (isDigit(c) || isLower(c) || c == 'C' || c == 'U' || c == 'L') {
      int savedPos = pos;
      int savedSubs = subs.size();
      Node savedLast = lastName;
      try {
        Node prefix = null;
        while (!eat('E')) {
          eat('L');
          Node n = unqualifiedName();
          if (peek() == 'I') {
            n = new Template(n, templateArgs(false));
          }
          prefix = prefix == null ? n : new Nested(prefix, n);
          if (peek() != 'E') {
            addSub(prefix);
          }
        }
        if (prefix == null) {
          throw FAIL;
        }
        return new Nested(prefix, unresolvedBase());
      } catch (RuntimeException e) {
        if (e != FAIL) {
          throw e;
        }
        pos = savedPos;
        while (subs.size() > savedSubs) {
          subs.remove(subs.size() - 1);
        }
        lastName = savedLast;
      }
    }
    Node t = type();
    return new Nested(t, unresolvedBase());
  }

  private Node unresolvedBase() {
    Node n = unqualifiedName();
    if (peek() == 'I') {
      n = new Template(n, templateArgs(false));
    }
    return n;
  }

  private Node unresolvedType() {
    char c = peek();
    if (c == 'T') {
      Node t = templateParam();
      addSub(t);
      return t;
    }
    if (c == 'D') {
      Node t = decltype();
      addSub(t);
      return t;
    }
    if (c == 'S') {
      return substitution(false);
    }
    Node n = sourceName();
    addSub(n);
    return n;
  }

  private Node simpleId() {
    Node n = sourceName();
    if (peek() == 'I') {
      n = new Template(n, templateArgs(false));
    }
    return n;
  }

  private Node baseUnresolvedName() {
    if (isDigit(peek())) {
      return simpleId();
    }
    if (eat("dn")) {
      Node t = isDigit(peek()) ? simpleId() : unresolvedType();
      return new Prefixed("~", t);
    }
    eat("on");
    Node op = operatorName();
    if (peek() == 'I') {
      op = new Template(op, templateArgs(false));
    }
    return op;
  }

  private Node unresolvedNameTail() {
    if (peek() == 's' && peek(1) == 'r') {
      return unresolvedName();
    }
    return baseUnresolvedName();
  }
}
