package io.symbolicate.symbols.demangle;

/**
 * The kinds of {@link Node}. Spacing and punctuation follow binutils' {@code c++filt}
 * (libiberty): {@code > >}, {@code char const*}, {@code int (*) [3]}, {@code {lambda(int)#1}}.
 */
final class Nodes {
  private Nodes() {}

  /** Text printed as it is: a source name, a builtin type, a special prefix. */
  static final class Text extends Node {
    final String text;

    Text(String text) {
      this.text = text;
    }

    @Override
    void left(Printer p) {
      p.append(text);
    }
  }

  /** A source name; {@code _GLOBAL__N...} is the anonymous namespace. */
  static final class Name extends Node {
    final String name;

    Name(String name) {
      this.name = name;
    }

    @Override
    void left(Printer p) {
      p.append(name);
    }
  }

  /** {@code prefix::name}. */
  static final class Nested extends Node {
    final Node prefix;
    final Node name;

    Nested(Node prefix, Node name) {
      super(prefix, name);
      this.prefix = prefix;
      this.name = name;
    }

    @Override
    void left(Printer p) {
      prefix.print(p);
      p.append("::");
      name.print(p);
    }
  }

  /** {@code name<args>}. */
  static final class Template extends Node {
    final Node name;
    final TemplateArgs args;

    Template(Node name, TemplateArgs args) {
      super(name, args);
      this.name = name;
      this.args = args;
    }

    @Override
    void left(Printer p) {
      Template saved = p.currentTemplate;
      p.currentTemplate = this;
      name.print(p);
      args.print(p);
      p.currentTemplate = saved;
    }
  }

  /** {@code <a, b>}, {@code > >} when the last argument ends in {@code >}. */
  static final class TemplateArgs extends Node {
    final Node[] args;

    TemplateArgs(Node[] args) {
      super(args);
      this.args = args;
    }

    @Override
    void left(Printer p) {
      if (p.last() == '<') {
        p.append(' '); // operator<< <T>
      }
      p.append('<');
      printList(p, args);
      if (p.last() == '>') {
        p.append(' ');
      }
      p.append('>');
    }
  }

  /**
   * Prints {@code nodes} separated by ", ". As libiberty's right-recursive argument lists do, a
   * separator is taken back only when everything after it printed nothing (empty packs at the
   * end); an empty element in the middle leaves {@code , ,}.
   */
  static void printList(Printer p, Node[] nodes) {
    if (nodes.length == 0) {
      return;
    }
    nodes[0].print(p);
    int end = p.length();
    for (int i = 1; i < nodes.length; i++) {
      p.append(", ");
      int start = p.length();
      nodes[i].print(p);
      if (p.length() != start) {
        end = p.length();
      }
    }
    p.truncate(end);
  }

  /** {@code J ... E}: a template argument pack, printed as its elements. */
  static final class ArgPack extends Node {
    final Node[] elements;

    ArgPack(Node[] elements) {
      super(elements);
      this.elements = elements;
    }

    @Override
    void left(Printer p) {
      printList(p, elements);
    }
  }

  /** Prints nothing: the element of an expanded pack past its end. */
  static final Node NOTHING = new Text("");

  /** {@code Dp pattern}: the pattern once per element of the pack it names. */
  static final class PackExpansion extends Node {
    final Node pattern;

    PackExpansion(Node pattern) {
      super(pattern);
      this.pattern = pattern;
    }

    @Override
    void left(Printer p) {
      p.tick();
      int savedIndex = p.packIndex;
      int savedSize = p.packSize;
      int start = p.length();
      char last = p.last;
      p.packIndex = -1;
      p.packSize = -2;
      pattern.print(p);
      int size = p.packSize;
      p.truncate(start);
      p.last = last;
      if (size < 0) {
        // no pack inside (a function parameter pack): the pattern and "...", as libiberty does
        p.packIndex = -1;
        p.packSize = -1;
        subexpr(p, pattern);
        p.append("...");
      } else {
        for (int i = 0; i < size; i++) {
          if (i > 0) {
            p.append(", ");
          }
          p.packIndex = i;
          p.packSize = size;
          pattern.print(p);
        }
      }
      p.packIndex = savedIndex;
      p.packSize = savedSize;
    }
  }

  /**
   * {@code T_}, {@code T0_}: resolved while printing, as libiberty does, against the arguments of
   * the innermost function template being printed; inside a lambda's parameters it is {@code
   * auto:N}.
   */
  static final class TemplateParam extends Node {
    final int index;

    TemplateParam(int index) {
      this.index = index;
    }

    private Printer.Frame frame(Printer p) {
      Printer.Frame f = p.templates;
      if (f == null || index >= f.args.length) {
        throw ItaniumParser.FAIL;
      }
      return f;
    }

    /** The argument; inside a pack expansion, the current element of a pack argument. */
    private static Node argument(Printer p, Printer.Frame f, int index) {
      Node t = f.args[index];
      if (t instanceof ArgPack) {
        ArgPack pack = (ArgPack) t;
        if (p.packSize == -2) {
          // sizing an expansion: the first pack met decides its length
          p.packSize = pack.elements.length;
          p.packIndex = 0;
        }
        if (p.packIndex >= 0) {
          return p.packIndex < pack.elements.length ? pack.elements[p.packIndex] : NOTHING;
        }
      }
      return t;
    }

    @Override
    Node resolve(Printer p) {
      if (p.lambdaArgs > 0) {
        return this; // a generic lambda's own parameter: printed auto:N, nothing to resolve
      }
      Printer.Frame f = frame(p);
      Node t = argument(p, f, index);
      p.templates = f.next;
      p.enter(t);
      try {
        return t.resolve(p);
      } finally {
        p.leave(t);
        p.templates = f;
      }
    }

    @Override
    void left(Printer p) {
      p.tick();
      if (p.lambdaArgs > 0) {
        p.append("auto:").append(Integer.toString(index + 1));
        return;
      }
      Printer.Frame f = frame(p);
      Node t = argument(p, f, index);
      p.templates = f.next;
      p.enter(t);
      t.left(p);
      p.leave(t);
      p.templates = f;
    }

    @Override
    void right(Printer p) {
      if (p.lambdaArgs > 0) {
        return;
      }
      Printer.Frame f = frame(p);
      Node t = argument(p, f, index);
      p.templates = f.next;
      p.enter(t);
      t.right(p);
      p.leave(t);
      p.templates = f;
    }

    private boolean ask(Printer p, int what) {
      if (p.lambdaArgs > 0) {
        return false;
      }
      Printer.Frame f = frame(p);
      Node t = argument(p, f, index);
      p.templates = f.next;
      p.enter(t);
      boolean r = what == 0 ? t.hasRight(p) : what == 1 ? t.isFunction(p) : t.isArray(p);
      p.leave(t);
      p.templates = f;
      return r;
    }

    @Override
    boolean hasRight(Printer p) {
      return ask(p, 0);
    }

    @Override
    boolean isFunction(Printer p) {
      return ask(p, 1);
    }

    @Override
    boolean isArray(Printer p) {
      return ask(p, 2);
    }
  }

  /** {@code K}, {@code V}, {@code r} and vendor qualifiers after a type: {@code char const}. */
  static final class Qualified extends Node {
    final Node type;
    final String quals;

    Qualified(Node type, String quals) {
      super(type);
      this.type = type;
      this.quals = quals;
    }

    @Override
    void left(Printer p) {
      type.left(p);
      if (!type.hasRight(p)) {
        p.append(quals);
      }
    }

    @Override
    void right(Printer p) {
      if (type.hasRight(p)) {
        type.right(p);
        p.append(quals);
      }
    }

    @Override
    boolean hasRight(Printer p) {
      return type.hasRight(p);
    }

    @Override
    boolean isFunction(Printer p) {
      return type.isFunction(p);
    }

    @Override
    boolean isArray(Printer p) {
      return type.isArray(p);
    }
  }

  /** Pointer {@code *}, references {@code &} and {@code &&}, {@code _Complex}, {@code _Imaginary}. */
  static final class Pointer extends Node {
    final Node pointee;
    final String sigil;

    Pointer(Node pointee, String sigil) {
      super(pointee);
      this.pointee = pointee;
      this.sigil = sigil;
    }

    private boolean isReference() {
      return sigil.equals("&") || sigil.equals("&&");
    }

    /** Reference collapsing, as when a template parameter is itself a reference. */
    private Node target(Printer p, String[] sigilOut) {
      Node t = pointee;
      String s = sigil;
      if (isReference()) {
        for (int guard = 0; guard < 64; guard++) {
          Node r = t.resolve(p);
          if (r instanceof Pointer && ((Pointer) r).isReference()) {
            if (((Pointer) r).sigil.equals("&")) {
              s = "&";
            }
            t = ((Pointer) r).pointee;
          } else {
            break;
          }
        }
      }
      sigilOut[0] = s;
      return t;
    }

    @Override
    void left(Printer p) {
      String[] s = new String[1];
      Node t = target(p, s);
      t.left(p);
      boolean wrap = t.isFunction(p) || t.isArray(p);
      if (t.isArray(p)) {
        p.append(' ');
      }
      if (wrap) {
        p.append('(');
      }
      p.append(s[0]);
    }

    @Override
    void right(Printer p) {
      String[] s = new String[1];
      Node t = target(p, s);
      if (t.isFunction(p) || t.isArray(p)) {
        p.append(')');
      }
      t.right(p);
    }

    @Override
    boolean hasRight(Printer p) {
      String[] s = new String[1];
      return target(p, s).hasRight(p);
    }
  }

  /** {@code M class member}: {@code int A::*}, {@code void (A::*)(int) const}. */
  static final class MemberPointer extends Node {
    final Node cls;
    final Node member;

    MemberPointer(Node cls, Node member) {
      super(cls, member);
      this.cls = cls;
      this.member = member;
    }

    @Override
    void left(Printer p) {
      member.left(p);
      if (member.isFunction(p) || member.isArray(p)) {
        p.append('(');
      } else {
        p.append(' ');
      }
      cls.print(p);
      p.append("::*");
    }

    @Override
    void right(Printer p) {
      if (member.isFunction(p) || member.isArray(p)) {
        p.append(')');
      }
      member.right(p);
    }

    @Override
    boolean hasRight(Printer p) {
      return member.hasRight(p);
    }
  }

  /** {@code A dim _ element}: {@code int [3]}. */
  static final class Array extends Node {
    final Node element;
    final Node dimension; // null: unknown bound

    Array(Node element, Node dimension) {
      super(element, dimension);
      this.element = element;
      this.dimension = dimension;
    }

    @Override
    void left(Printer p) {
      element.left(p);
    }

    @Override
    void right(Printer p) {
      if (p.last() != ']') {
        p.append(' ');
      }
      p.append('[');
      if (dimension != null) {
        dimension.print(p);
      }
      p.append(']');
      element.right(p);
    }

    @Override
    boolean hasRight(Printer p) {
      return true;
    }

    @Override
    boolean isArray(Printer p) {
      return true;
    }
  }

  /** {@code Dv n _ type}: {@code int __vector(4)}. */
  static final class Vector extends Node {
    final Node element;
    final Node dimension;

    Vector(Node element, Node dimension) {
      super(element, dimension);
      this.element = element;
      this.dimension = dimension;
    }

    @Override
    void left(Printer p) {
      element.print(p);
      p.append(" __vector(");
      if (dimension != null) {
        dimension.print(p);
      }
      p.append(')');
    }
  }

  /** {@code F ret params E}, with the method qualifiers a member function type carries. */
  static final class Function extends Node {
    final Node ret; // null: none printed
    final Node[] params;
    final String quals; // " const", " &", ...
    final Node exception; // " noexcept", " throw(...)", or null

    Function(Node ret, Node[] params, String quals, Node exception) {
      super(concat(ret, concat(exception, params)));
      this.ret = ret;
      this.params = params;
      this.quals = quals;
      this.exception = exception;
    }

    @Override
    void left(Printer p) {
      if (ret != null) {
        ret.left(p);
        if (!ret.hasRight(p)) {
          p.append(' ');
        }
      }
    }

    @Override
    void right(Printer p) {
      printParams(p, params);
      if (ret != null) {
        ret.right(p);
      }
      p.append(quals);
      if (exception != null) {
        exception.print(p);
      }
    }

    @Override
    boolean hasRight(Printer p) {
      return true;
    }

    @Override
    boolean isFunction(Printer p) {
      return true;
    }
  }

  static Node[] concat(Node first, Node[] rest) {
    Node[] all = new Node[rest.length + 1];
    all[0] = first;
    System.arraycopy(rest, 0, all, 1, rest.length);
    return all;
  }

  static void printParams(Printer p, Node[] params) {
    p.append('(');
    if (!(params.length == 1
        && params[0] instanceof Text
        && ((Text) params[0]).text.equals("void"))) {
      printList(p, params);
    }
    p.append(')');
  }

  /** A function's encoding: {@code ret name(params) quals}. */
  static final class Encoding extends Node {
    final Node ret; // null unless a template function's
    final Node name;
    final Node[] params;
    final String quals;
    final Node[] templateArgs; // the function template's, or null

    Encoding(Node ret, Node name, Node[] params, String quals, Node[] templateArgs) {
      super(concat(ret, concat(name, params)));
      this.ret = ret;
      this.name = name;
      this.params = params;
      this.quals = quals;
      this.templateArgs = templateArgs;
    }

    Encoding withoutReturnType() {
      return new Encoding(null, name, params, quals, templateArgs);
    }

    /**
     * The return type and parameters see the function template's arguments; the name itself is
     * printed outside them, as libiberty prints it (so {@code T_} in the name's own template
     * arguments is refused, as c++filt refuses it; a conversion operator's type is resolved
     * against the template it names).
     */
    @Override
    void left(Printer p) {
      if (ret != null) {
        push(p);
        ret.left(p);
        boolean hasRight = ret.hasRight(p);
        pop(p);
        if (!hasRight) {
          p.append(' ');
        }
      }
      name.print(p);
    }

    @Override
    void right(Printer p) {
      push(p);
      printRight(p);
      pop(p);
    }

    private void push(Printer p) {
      if (templateArgs != null) {
        p.templates = new Printer.Frame(templateArgs, p.templates);
      }
    }

    private void pop(Printer p) {
      if (templateArgs != null) {
        p.templates = p.templates.next;
      }
    }

    private void printRight(Printer p) {
      printParams(p, params);
      if (ret != null) {
        ret.right(p);
      }
      p.append(quals);
    }
  }

  /** {@code Z encoding E entity}: {@code f()::Local}. */
  static final class Local extends Node {
    final Node encoding;
    final Node entity;

    Local(Node encoding, Node entity) {
      super(encoding, entity);
      this.encoding = encoding;
      this.entity = entity;
    }

    @Override
    void left(Printer p) {
      encoding.print(p);
      p.append("::");
      entity.print(p);
    }
  }

  /** A name with a prefix text: {@code vtable for X}, {@code ~X}, {@code operator int}. */
  static final class Prefixed extends Node {
    final String prefix;
    final Node node;

    Prefixed(String prefix, Node node) {
      super(node);
      this.prefix = prefix;
      this.node = node;
    }

    @Override
    void left(Printer p) {
      p.append(prefix);
      node.print(p);
    }
  }

  /** A name followed by a text: {@code f[abi:cxx11]}, {@code f() [clone .cold]}. */
  static final class Suffixed extends Node {
    final Node node;
    final String suffix;

    Suffixed(Node node, String suffix) {
      super(node);
      this.node = node;
      this.suffix = suffix;
    }

    @Override
    void left(Printer p) {
      node.print(p);
      p.append(suffix);
    }
  }

  /** {@code construction vtable for B-in-A}. */
  static final class ConstructionVtable extends Node {
    final Node base;
    final Node derived;

    ConstructionVtable(Node base, Node derived) {
      super(base, derived);
      this.base = base;
      this.derived = derived;
    }

    @Override
    void left(Printer p) {
      p.append("construction vtable for ");
      base.print(p);
      p.append("-in-");
      derived.print(p);
    }
  }

  /** {@code Ul params E n _}: {@code {lambda(int)#1}}. */
  static final class Lambda extends Node {
    final Node[] params;
    final int number;

    Lambda(Node[] params, int number) {
      super(params);
      this.params = params;
      this.number = number;
    }

    @Override
    void left(Printer p) {
      p.append("{lambda");
      p.lambdaArgs++;
      printParams(p, params);
      p.lambdaArgs--;
      p.append('#').append(Integer.toString(number)).append('}');
    }
  }

  /** An expression in a template argument, printed the way libiberty does. */
  static final class Expr extends Node {
    final Node[] parts;
    final Printing how;

    interface Printing {
      void print(Printer p, Node[] parts);
    }

    Expr(Printing how, Node... parts) {
      super(parts);
      this.parts = parts;
      this.how = how;
    }

    @Override
    void left(Printer p) {
      how.print(p, parts);
    }
  }

  /** An operand of an expression, parenthesized unless it is a name or a function parameter. */
  static void subexpr(Printer p, Node n) {
    boolean simple =
        n instanceof Name
            || n instanceof Nested
            || n instanceof FunctionParam
            || n instanceof InitList;
    if (!simple) {
      p.append('(');
    }
    n.print(p);
    if (!simple) {
      p.append(')');
    }
  }

  /** {@code fp N _}: {@code {parm#N+1}}. */
  static final class FunctionParam extends Node {
    final String number;

    FunctionParam(String number) {
      this.number = number;
    }

    @Override
    void left(Printer p) {
      p.append("{parm#").append(number).append('}');
    }
  }

  /** {@code il ... E}, {@code tl type ... E}: braced initializer lists. */
  static final class InitList extends Node {
    final Node type; // may be null
    final Node[] elements;

    InitList(Node type, Node[] elements) {
      super(concat(type, elements));
      this.type = type;
      this.elements = elements;
    }

    @Override
    void left(Printer p) {
      if (type != null) {
        type.print(p);
      }
      p.append('{');
      printList(p, elements);
      p.append('}');
    }
  }
}
