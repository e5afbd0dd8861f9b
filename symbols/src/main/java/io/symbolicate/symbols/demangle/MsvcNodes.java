package io.symbolicate.symbols.demangle;

import java.util.List;

/**
 * The nodes of a demangled Microsoft C++ name and how they print. Types print in two parts
 * around a declarator ({@code void (__cdecl *)(int)}): {@link Node#pre} and {@link Node#post}.
 * The spelling is llvm-undname's; the flags turn parts off for the short forms.
 */
final class MsvcNodes {
  private MsvcNodes() {}

  // output flags
  static final int NO_CALLING_CONVENTION = 1;
  static final int NO_ACCESS = 2;
  static final int NO_MEMBER_TYPE = 4;
  static final int NO_RETURN_TYPE = 8;
  static final int NO_TAG = 16;
  static final int NO_VARIABLE_TYPE = 32;

  /**
   * DIA's undecorator (Breakpad's PUBLIC names): {@code char const*}, {@code char* const}, {@code
   * > >}, {@code int64_t}, a returned function pointer's parameter list kept after the name.
   */
  static final int UNDNAME = 64;

  /**
   * The older undecorator's spelling (Breakpad's FUNC names): {@code T *} and {@code T &}, no
   * space after commas, special functions spelled out ({@code `scalar deleting destructor'}),
   * no {@code const} of {@code this} ({@code UNDNAME_NO_THISTYPE}). With {@link #UNDNAME}.
   */
  static final int OLD_UNDNAME = 128;

  // qualifiers
  static final int CONST = 1;
  static final int VOLATILE = 2;
  static final int UNALIGNED = 4;
  static final int RESTRICT = 8;
  static final int PTR64 = 16;

  // function classes
  static final int PUBLIC = 1;
  static final int PROTECTED = 2;
  static final int PRIVATE = 4;
  static final int GLOBAL = 8;
  static final int STATIC = 16;
  static final int VIRTUAL = 32;
  static final int FAR = 64;
  static final int EXTERN_C = 128;
  static final int NO_PARAMETER_LIST = 256;
  static final int VIRTUAL_THIS_ADJUST = 512;
  static final int VIRTUAL_THIS_ADJUST_EX = 1024;
  static final int STATIC_THIS_ADJUST = 2048;

  /** Output with a budget of characters shared by every rendering of one name. */
  static final class Out {
    final StringBuilder sb = new StringBuilder(64);
    private final int[] budget;

    Out(int[] budget) {
      this.budget = budget;
    }

    Out add(String s) {
      budget[0] -= s.length();
      if (budget[0] < 0) {
        throw MsvcDemangler.FAIL;
      }
      sb.append(s);
      return this;
    }

    Out add(char c) {
      if (--budget[0] < 0) {
        throw MsvcDemangler.FAIL;
      }
      sb.append(c);
      return this;
    }

    char last() {
      return sb.length() == 0 ? 0 : sb.charAt(sb.length() - 1);
    }

    /** A space between two words, or after a {@code >}. */
    void spaceIfNeeded() {
      char c = last();
      if (Character.isLetterOrDigit(c) && c < 128 || c == '>') {
        add(' ');
      }
    }

    @Override
    public String toString() {
      return sb.toString();
    }
  }

  abstract static class Node {
    void pre(Out o, int flags) {}

    void post(Out o, int flags) {}

    void out(Out o, int flags) {
      pre(o, flags);
      post(o, flags);
    }
  }

  static void list(Out o, int flags, List<? extends Node> nodes, String sep) {
    for (int i = 0; i < nodes.size(); i++) {
      if (i > 0) {
        o.add((flags & OLD_UNDNAME) != 0 && sep.equals(", ") ? "," : sep);
      }
      nodes.get(i).out(o, flags);
    }
  }

  static void qualifiers(Out o, int q, boolean spaceBefore, boolean spaceAfter) {
    int start = o.sb.length();
    spaceBefore = qualifier(o, q, CONST, "const", spaceBefore);
    spaceBefore = qualifier(o, q, VOLATILE, "volatile", spaceBefore);
    qualifier(o, q, RESTRICT, "__restrict", spaceBefore);
    if (spaceAfter && o.sb.length() > start) {
      o.add(' ');
    }
  }

  private static boolean qualifier(Out o, int q, int mask, String text, boolean space) {
    if ((q & mask) == 0) {
      return space;
    }
    if (space) {
      o.add(' ');
    }
    o.add(text);
    return true;
  }

  // ---- identifiers and names ----

  abstract static class Ident extends Node {
    List<Node> templateArgs;

    void templateArgs(Out o, int flags) {
      if (templateArgs != null) {
        o.add('<');
        list(o, flags, templateArgs, ", ");
        if ((flags & UNDNAME) != 0 && o.last() == '>') {
          o.add(' ');
        }
        o.add('>');
      }
    }
  }

  static final class Named extends Ident {
    final String name;

    Named(String name) {
      this.name = name;
    }

    @Override
    void out(Out o, int flags) {
      o.add(name);
      templateArgs(o, flags);
    }
  }

  /** Operators and the compiler's special functions ({@code `scalar deleting dtor'}). */
  static final class Operator extends Ident {
    final String text;

    Operator(String text) {
      this.text = text;
    }

    @Override
    void out(Out o, int flags) {
      if ((flags & OLD_UNDNAME) != 0 && text.startsWith("`")) {
        o.add(text.replaceAll("\\bdtor\\b", "destructor").replaceAll("\\bctor\\b", "constructor"));
      } else {
        o.add(text);
      }
      templateArgs(o, flags);
    }
  }

  static final class Conversion extends Ident {
    Type target;

    @Override
    void out(Out o, int flags) {
      if ((flags & UNDNAME) != 0 && templateArgs != null) {
        // DIA spells a conversion template this way, without its type
        o.add("operatorcast");
        templateArgs(o, flags);
        return;
      }
      o.add("operator");
      templateArgs(o, flags);
      o.add(' ');
      if (target != null) {
        target.out(o, flags);
      }
    }
  }

  static final class Structor extends Ident {
    final boolean destructor;
    Ident owner;

    Structor(boolean destructor) {
      this.destructor = destructor;
    }

    @Override
    void out(Out o, int flags) {
      if ((flags & UNDNAME) != 0 && templateArgs != null) {
        // DIA's spelling of a constructor or destructor template
        o.add(destructor ? "dtor" : "ctor");
        templateArgs(o, flags);
        return;
      }
      if (destructor) {
        o.add('~');
      }
      owner.out(o, flags);
      templateArgs(o, flags);
    }
  }

  static final class LiteralOperator extends Ident {
    final String name;

    LiteralOperator(String name) {
      this.name = name;
    }

    @Override
    void out(Out o, int flags) {
      o.add("operator \"\"").add(name);
      templateArgs(o, flags);
    }
  }

  static final class StaticGuard extends Ident {
    final boolean thread;
    long scope;

    StaticGuard(boolean thread) {
      this.thread = thread;
    }

    @Override
    void out(Out o, int flags) {
      o.add(thread ? "`local static thread guard'" : "`local static guard'");
      if (scope > 0) {
        o.add('{').add(Long.toUnsignedString(scope)).add('}');
      }
    }
  }

  static final class VcallThunk extends Ident {
    long offset;

    @Override
    void out(Out o, int flags) {
      o.add("`vcall'{").add(Long.toUnsignedString(offset)).add(", {flat}}");
    }
  }

  static final class BaseClassDescriptor extends Ident {
    final long nvOffset;
    final int vbPtrOffset;
    final long vbTableOffset;
    final long flags;

    BaseClassDescriptor(long nvOffset, int vbPtrOffset, long vbTableOffset, long flags) {
      this.nvOffset = nvOffset;
      this.vbPtrOffset = vbPtrOffset;
      this.vbTableOffset = vbTableOffset;
      this.flags = flags;
    }

    @Override
    void out(Out o, int f) {
      o.add("`RTTI Base Class Descriptor at (")
          .add(Long.toString(nvOffset))
          .add(", ")
          .add(Integer.toString(vbPtrOffset))
          .add(", ")
          .add(Long.toString(vbTableOffset))
          .add(", ")
          .add(Long.toString(flags))
          .add(")'");
    }
  }

  /** {@code `dynamic initializer for 'x''} and its atexit destructor. */
  static final class DynamicStructor extends Ident {
    final boolean destructor;
    Variable variable;
    QName name;

    DynamicStructor(boolean destructor) {
      this.destructor = destructor;
    }

    @Override
    void out(Out o, int flags) {
      o.add(destructor ? "`dynamic atexit destructor for " : "`dynamic initializer for ");
      if (variable != null) {
        o.add('`');
        variable.out(o, flags);
        o.add("''");
      } else {
        o.add('\'');
        name.out(o, flags);
        o.add("''");
      }
    }
  }

  static final class QName extends Node {
    final List<Ident> parts;

    QName(List<Ident> parts) {
      this.parts = parts;
    }

    Ident last() {
      return parts.get(parts.size() - 1);
    }

    @Override
    void out(Out o, int flags) {
      list(o, flags, parts, "::");
    }
  }

  // ---- types ----

  abstract static class Type extends Node {
    int quals;
  }

  static final class Primitive extends Type {
    final String name;

    Primitive(String name) {
      this.name = name;
    }

    @Override
    void pre(Out o, int flags) {
      if ((flags & (UNDNAME | OLD_UNDNAME)) == UNDNAME && name.endsWith("__int64")) {
        o.add(name.equals("__int64") ? "int64_t" : "uint64_t");
      } else {
        o.add(name);
      }
      qualifiers(o, quals, true, false);
    }
  }

  static final class Tag extends Type {
    final String kind;
    QName name;

    Tag(String kind) {
      this.kind = kind;
    }

    @Override
    void pre(Out o, int flags) {
      if ((flags & NO_TAG) == 0) {
        o.add(kind).add(' ');
      }
      name.out(o, flags);
      qualifiers(o, quals, true, false);
    }
  }

  static final class Custom extends Type {
    final Ident ident;

    Custom(Ident ident) {
      this.ident = ident;
    }

    @Override
    void pre(Out o, int flags) {
      ident.out(o, flags);
    }
  }

  static final int POINTER = 0;
  static final int REFERENCE = 1;
  static final int RVALUE_REFERENCE = 2;

  static final class Pointer extends Type {
    int affinity;
    Type pointee;
    QName memberOf;

    @Override
    void pre(Out o, int flags) {
      if ((flags & UNDNAME) != 0) {
        undnamePre(o, flags);
        return;
      }
      if (pointee instanceof Signature sig) {
        // the calling convention goes inside the parentheses
        sig.pre(o, NO_CALLING_CONVENTION);
      } else {
        pointee.pre(o, flags);
      }
      o.spaceIfNeeded();
      if ((quals & UNALIGNED) != 0) {
        o.add("__unaligned ");
      }
      if (pointee instanceof Array) {
        o.add('(');
      } else if (pointee instanceof Signature sig) {
        o.add('(');
        callingConvention(o, sig.callingConvention);
        o.add(' ');
      }
      if (memberOf != null) {
        memberOf.out(o, flags);
        o.add("::");
      }
      o.add(affinity == POINTER ? "*" : affinity == REFERENCE ? "&" : "&&");
      qualifiers(o, quals, false, false);
    }

    /** {@code char const*}, {@code char* const}, {@code void (* const)(void)}. */
    private void undnamePre(Out o, int flags) {
      if (pointee instanceof Signature sig) {
        if ((sig.quals & (CONST | VOLATILE)) == 0 && (quals & (CONST | VOLATILE)) != 0) {
          // DIA does not undecorate a cv-qualified function pointer: Breakpad keeps the name
          throw MsvcDemangler.FAIL;
        }
        sig.pre(o, flags | NO_CALLING_CONVENTION);
        o.add('(');
      } else {
        pointee.pre(o, flags);
        if (pointee instanceof Array) {
          o.add(" (");
        }
      }
      if ((flags & OLD_UNDNAME) != 0 && o.last() != '(' && o.last() != ' ') {
        o.add(' ');
      }
      if (memberOf != null) {
        memberOf.out(o, flags);
        o.add("::");
      }
      o.add(affinity == POINTER ? "*" : affinity == REFERENCE ? "&" : "&&");
      qualifiers(o, quals, true, false);
    }

    @Override
    void post(Out o, int flags) {
      if (pointee instanceof Array || pointee instanceof Signature) {
        o.add(')');
      }
      pointee.post(o, flags);
    }
  }

  static final class Array extends Type {
    long[] dimensions;
    Type element;

    @Override
    void pre(Out o, int flags) {
      element.pre(o, flags);
      qualifiers(o, quals, true, false);
    }

    @Override
    void post(Out o, int flags) {
      o.add('[');
      for (int i = 0; i < dimensions.length; i++) {
        if (i > 0) {
          o.add("][");
        }
        if (dimensions[i] != 0) {
          o.add(Long.toUnsignedString(dimensions[i]));
        }
      }
      o.add(']');
      element.post(o, flags);
    }
  }

  static final String[] CALLING_CONVENTIONS = {
    "",
    "__cdecl",
    "__pascal",
    "__thiscall",
    "__stdcall",
    "__fastcall",
    "__clrcall",
    "__eabi",
    "__vectorcall",
    "__regcall",
    "__attribute__((__swiftcall__)) ",
    "__attribute__((__swiftasynccall__)) "
  };

  static void callingConvention(Out o, int cc) {
    o.add(CALLING_CONVENTIONS[cc]);
  }

  /** A function type; as a symbol's signature it carries the member's access and kind. */
  static class Signature extends Type {
    int functionClass;
    int callingConvention;
    int refQualifier; // 0, REFERENCE, RVALUE_REFERENCE
    boolean variadic;
    boolean noexcept;
    Type returnType;
    List<Type> params; // null: (void)

    void copyFrom(Signature s) {
      quals = s.quals;
      callingConvention = s.callingConvention;
      refQualifier = s.refQualifier;
      variadic = s.variadic;
      noexcept = s.noexcept;
      returnType = s.returnType;
      params = s.params;
    }

    @Override
    void pre(Out o, int flags) {
      int fc = functionClass;
      if ((flags & NO_ACCESS) == 0) {
        if ((fc & PUBLIC) != 0) {
          o.add("public: ");
        }
        if ((fc & PROTECTED) != 0) {
          o.add("protected: ");
        }
        if ((fc & PRIVATE) != 0) {
          o.add("private: ");
        }
      }
      if ((flags & NO_MEMBER_TYPE) == 0) {
        if ((fc & GLOBAL) == 0 && (fc & STATIC) != 0) {
          o.add("static ");
        }
        if ((fc & VIRTUAL) != 0) {
          o.add("virtual ");
        }
        if ((fc & EXTERN_C) != 0) {
          o.add("extern \"C\" ");
        }
      }
      if ((flags & NO_RETURN_TYPE) == 0 && returnType != null) {
        returnType.pre(o, flags);
        o.add(' ');
      }
      if ((flags & NO_CALLING_CONVENTION) == 0) {
        callingConvention(o, callingConvention);
      }
    }

    @Override
    void post(Out o, int flags) {
      if ((functionClass & NO_PARAMETER_LIST) == 0) {
        o.add('(');
        if (params != null) {
          list(o, flags & ~NO_RETURN_TYPE, params, ", ");
        } else {
          o.add("void");
        }
        if (variadic) {
          if (o.last() != '(') {
            o.add(", ");
          }
          o.add("...");
        }
        o.add(')');
      }
      if ((quals & CONST) != 0 && (flags & OLD_UNDNAME) == 0) {
        o.add(" const");
      }
      if ((quals & VOLATILE) != 0 && (flags & OLD_UNDNAME) == 0) {
        o.add(" volatile");
      }
      if ((quals & RESTRICT) != 0) {
        o.add(" __restrict");
      }
      if ((quals & UNALIGNED) != 0) {
        o.add(" __unaligned");
      }
      if (noexcept) {
        o.add(" noexcept");
      }
      if (refQualifier == REFERENCE) {
        o.add(" &");
      } else if (refQualifier == RVALUE_REFERENCE) {
        o.add(" &&");
      }
      if (((flags & NO_RETURN_TYPE) == 0 || (flags & UNDNAME) != 0) && returnType != null) {
        // DIA keeps a returned function pointer's parameters when it leaves out return types
        returnType.post(o, flags & ~NO_RETURN_TYPE);
      }
    }
  }

  /** An adjustor or vtordisp thunk's signature. */
  static final class Thunk extends Signature {
    int staticOffset;
    int vbPtrOffset;
    int vbOffsetOffset;
    int vtordispOffset;

    @Override
    void pre(Out o, int flags) {
      o.add("[thunk]: ");
      super.pre(o, flags);
    }

    @Override
    void post(Out o, int flags) {
      if ((functionClass & STATIC_THIS_ADJUST) != 0) {
        o.add("`adjustor{").add(Integer.toUnsignedString(staticOffset)).add("}'");
      } else if ((functionClass & VIRTUAL_THIS_ADJUST) != 0) {
        if ((functionClass & VIRTUAL_THIS_ADJUST_EX) != 0) {
          o.add("`vtordispex{")
              .add(Integer.toString(vbPtrOffset))
              .add(", ")
              .add(Integer.toString(vbOffsetOffset))
              .add(", ")
              .add(Integer.toString(vtordispOffset))
              .add(", ")
              .add(Integer.toUnsignedString(staticOffset))
              .add("}'");
        } else {
          o.add("`vtordisp{")
              .add(Integer.toString(vtordispOffset))
              .add(", ")
              .add(Integer.toUnsignedString(staticOffset))
              .add("}'");
        }
      }
      super.post(o, flags);
    }
  }

  // ---- template arguments ----

  static final class IntegerLiteral extends Node {
    final long value;
    final boolean negative;

    IntegerLiteral(long value, boolean negative) {
      this.value = value;
      this.negative = negative;
    }

    @Override
    void out(Out o, int flags) {
      if (negative) {
        o.add('-');
      }
      o.add(Long.toUnsignedString(value));
    }
  }

  /** A template argument naming a symbol: {@code &x}, a member pointer {@code {f, 8}}. */
  static final class SymbolReference extends Node {
    Symbol symbol;
    long[] offsets = new long[0];
    int affinity = -1;

    @Override
    void out(Out o, int flags) {
      if (offsets.length > 0) {
        o.add('{');
      } else if (affinity == POINTER) {
        o.add('&');
      }
      if (symbol != null) {
        symbol.out(o, flags);
        if (offsets.length > 0) {
          o.add(", ");
        }
      }
      for (int i = 0; i < offsets.length; i++) {
        if (i > 0) {
          o.add(", ");
        }
        o.add(Long.toString(offsets[i]));
      }
      if (offsets.length > 0) {
        o.add('}');
      }
    }
  }

  // ---- symbols ----

  abstract static class Symbol extends Node {
    QName name;
  }

  static final class Function extends Symbol {
    Signature signature;

    @Override
    void out(Out o, int flags) {
      signature.pre(o, flags);
      o.spaceIfNeeded();
      name.out(o, flags & ~NO_RETURN_TYPE);
      signature.post(o, flags);
    }
  }

  static final int PRIVATE_STATIC = 1;
  static final int PROTECTED_STATIC = 2;
  static final int PUBLIC_STATIC = 3;

  static final class Variable extends Symbol {
    Type type;
    int storage; // 0 or one of the *_STATIC

    @Override
    void out(Out o, int flags) {
      String access =
          storage == PRIVATE_STATIC
              ? "private"
              : storage == PROTECTED_STATIC
                  ? "protected"
                  : storage == PUBLIC_STATIC ? "public" : null;
      if ((flags & NO_ACCESS) == 0 && access != null) {
        o.add(access).add(": ");
      }
      if ((flags & NO_MEMBER_TYPE) == 0 && access != null) {
        o.add("static ");
      }
      if ((flags & NO_VARIABLE_TYPE) == 0 && type != null) {
        type.pre(o, flags);
        o.spaceIfNeeded();
      }
      name.out(o, flags);
      if ((flags & NO_VARIABLE_TYPE) == 0 && type != null) {
        type.post(o, flags);
      }
    }
  }

  /** {@code const A::`vftable'{for `B'}}. */
  static final class SpecialTable extends Symbol {
    int quals;
    QName target;

    @Override
    void out(Out o, int flags) {
      qualifiers(o, quals, false, true);
      name.out(o, flags);
      if (target != null) {
        o.add("{for `");
        target.out(o, flags);
        o.add("'}");
      }
    }
  }

  /** A symbol printed as its name alone: static guards, MD5 names. */
  static final class NameOnly extends Symbol {
    @Override
    void out(Out o, int flags) {
      name.out(o, flags);
    }
  }

  static final class StringLiteral extends Symbol {
    String prefix;
    String decoded;
    boolean truncated;

    @Override
    void out(Out o, int flags) {
      o.add(prefix).add(decoded).add('"');
      if (truncated) {
        o.add("...");
      }
    }
  }
}
