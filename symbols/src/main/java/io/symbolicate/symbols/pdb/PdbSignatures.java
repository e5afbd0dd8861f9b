package io.symbolicate.symbols.pdb;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Function signatures (argument lists, return types) and type sizes from the TPI, in two
 * forms: {@link Style#DIA}, as DIA (Breakpad's {@code dump_syms.exe}) prints a procedure that has
 * no public symbol ({@code static int f(struct s *, char * *)}), and {@link Style#SYMBOLIC}, as
 * symbolic and Symbolicator print inlinees ({@code std::_Unfancy(wchar_t*)}, {@code f() const}).
 * Every name is bounded: a chain longer than {@link PdbTypes#MAX_DEPTH}, a type reached again
 * inside itself, more than {@link #MAX_WORK} records for one name or a name past {@link
 * #MAX_CHARS} are refused with a {@link PdbFormatException} (the caller keeps the bare name).
 */
public final class PdbSignatures {
  /** Which program's form a signature takes. */
  public enum Style {
    DIA,
    SYMBOLIC
  }

  static final int LF_PROCEDURE = 0x1008;
  static final int LF_MFUNCTION = 0x1009;
  static final int LF_ARGLIST = 0x1201;
  static final int LF_ARRAY = 0x1503;

  /** The most type records one name may visit: a graph of types can expand exponentially. */
  static final int MAX_WORK = 4096;

  /** The longest name formatted. */
  static final int MAX_CHARS = 1 << 16;

  private static final int CTOR = 2; // CV_funcattr: constructor

  private final PdbTypes types;
  private final PdbTypes ids;
  private final int pointerSize;
  private Map<String, Long> completeSizes; // complete classes and unions by name, lazily

  private PdbSignatures(PdbTypes types, PdbTypes ids, int pointerSize) {
    this.types = types;
    this.ids = ids;
    this.pointerSize = pointerSize;
  }

  /** The PDB's TPI and IPI. */
  public static PdbSignatures of(PdbFile pdb) {
    PdbTypes ids = PdbTypes.ipi(pdb);
    String arch = pdb.arch();
    return new PdbSignatures(ids.tpi(), ids, arch.equals("x86") || arch.equals("arm") ? 4 : 8);
  }

  /** Whether the PDB has type records (a stripped PDB has none). */
  public boolean hasTypes() {
    return types.size() > 0;
  }

  /**
   * DIA's name for a procedure known only from the symbols (a static function: no public names
   * it): {@code static RET name(ARGS)}, empty return type and arguments where the procedure has
   * no type (funclets: {@code static  f$fin$0()}).
   */
  public String staticFunction(PdbProcedure p) {
    return staticFunction(p.name(), p.typeIsId() ? idType(p.type()) : p.type());
  }

  /** The TPI function type of an IPI function id, 0 when it has none. */
  private long idType(long id) {
    int at = ids.at(id);
    if (at < 0 || ids.endOf(at) - at < 12) {
      return 0;
    }
    ByteBuffer b = ids.bytes();
    int kind = b.getShort(at + 2) & 0xffff;
    return kind == PdbTypes.LF_FUNC_ID || kind == PdbTypes.LF_MFUNC_ID
        ? b.getInt(at + 8) & 0xffffffffL
        : 0;
  }

  String staticFunction(String name, long type) {
    Walk w = new Walk(Style.DIA, type);
    String ret = "";
    String args = "";
    if (type != 0) {
      int at = w.record(type);
      int kind = kind(at);
      if (kind == LF_PROCEDURE) {
        PdbTypes.need(at, types.endOf(at), 16, type);
        ret = w.type(u32(at + 4), 1);
        args = w.arguments(u32(at + 12), 1);
      } else if (kind == LF_MFUNCTION) {
        PdbTypes.need(at, types.endOf(at), 28, type);
        ret = w.type(u32(at + 4), 1);
        args = w.arguments(u32(at + 20), 1);
      }
    }
    return "static " + ret + " " + name + "(" + args + ")";
  }

  /**
   * An inlinee's name ({@code LF_FUNC_ID}, {@code LF_MFUNC_ID} of the IPI) with its argument
   * list as symbolic prints it ({@code ns::Class::f(int, char const*) const}); without a
   * procedure type, the qualified name alone; null when the index names no id.
   */
  public String inlinee(long id) {
    String name = ids.name(id);
    int at = ids.at(id);
    if (name == null || at < 0) {
      return name;
    }
    ByteBuffer b = ids.bytes();
    int kind = b.getShort(at + 2) & 0xffff;
    if (kind != PdbTypes.LF_FUNC_ID && kind != PdbTypes.LF_MFUNC_ID) {
      return name;
    }
    long type = b.getInt(at + 8) & 0xffffffffL;
    Walk w = new Walk(Style.SYMBOLIC, type);
    int t = types.at(type);
    if (t < 0) {
      return name;
    }
    if (kind(t) == LF_PROCEDURE && kind == PdbTypes.LF_FUNC_ID) {
      PdbTypes.need(t, types.endOf(t), 16, type);
      return w.cap(name + "(" + w.arguments(u32(t + 12), 1) + ")");
    }
    if (kind(t) == LF_MFUNCTION && kind == PdbTypes.LF_MFUNC_ID) {
      return w.cap(name + w.methodArguments(t, type, true, 1));
    }
    return name;
  }

  /** An id's qualified name without argument list ({@link PdbTypes#name}). */
  public String qualifiedName(long id) {
    return ids.name(id);
  }

  /** The size in bytes of a type (forward references by their complete type's name). */
  public long size(long type) {
    return new Walk(Style.DIA, type).size(type, 0);
  }

  private int kind(int at) {
    return types.bytes().getShort(at + 2) & 0xffff;
  }

  private long u32(int at) {
    return types.bytes().getInt(at) & 0xffffffffL;
  }

  private int u16(int at) {
    return types.bytes().getShort(at) & 0xffff;
  }

  /** One name's walk: its style, its work and the chain of types it is inside. */
  private final class Walk {
    private final Style style;
    private final long start;
    private final long[] chain = new long[PdbTypes.MAX_DEPTH + 2];
    private int work;

    Walk(Style style, long start) {
      this.style = style;
      this.start = start;
    }

    /** The record of {@code index}, refused when missing. */
    int record(long index) {
      int at = types.at(index);
      if (at < 0) {
        throw new PdbFormatException(
            "type index 0x" + Long.toHexString(index) + " names no type record");
      }
      return at;
    }

    /** Counts one more record at {@code depth}, refusing loops, long chains and much work. */
    void enter(long index, int depth) {
      if (depth > PdbTypes.MAX_DEPTH) {
        throw new PdbFormatException(
            "type index 0x"
                + Long.toHexString(start)
                + ": a chain of more than "
                + PdbTypes.MAX_DEPTH);
      }
      for (int i = 0; i < depth; i++) {
        if (chain[i] == index) {
          throw new PdbFormatException(
              "type index 0x" + Long.toHexString(index) + " refers back to itself");
        }
      }
      chain[depth] = index;
      if (++work > MAX_WORK) {
        throw new PdbFormatException(
            "type index 0x"
                + Long.toHexString(start)
                + ": a name of more than "
                + MAX_WORK
                + " type records");
      }
    }

    String cap(String s) {
      if (s.length() > MAX_CHARS) {
        throw new PdbFormatException(
            "type index 0x"
                + Long.toHexString(start)
                + ": a name of more than "
                + MAX_CHARS
                + " characters");
      }
      return s;
    }

    /** An argument list's types, {@code ", "} between them; type 0 (varargs) as {@code ...}. */
    String arguments(long list, int depth) {
      enter(list, depth);
      int at = record(list);
      int end = types.endOf(at);
      if (kind(at) != LF_ARGLIST) {
        return "";
      }
      PdbTypes.need(at, end, 8, list);
      long count = u32(at + 4);
      if (count > (end - at - 8) / 4) {
        throw new PdbFormatException(
            "argument list 0x"
                + Long.toHexString(list)
                + " claims "
                + count
                + " arguments in "
                + (end - at)
                + " bytes");
      }
      StringBuilder s = new StringBuilder();
      for (int i = 0; i < count; i++) {
        if (i > 0) {
          s.append(", ");
        }
        long arg = u32(at + 8 + 4 * i);
        s.append(arg == 0 ? "..." : type(arg, depth + 1));
        cap(s.toString());
      }
      return s.toString();
    }

    /**
     * A member function's {@code (ARGS)} and {@code const} as symbolic prints them: a {@code
     * this} of another class than the method's is printed as a first argument.
     */
    String methodArguments(int at, long index, boolean withConst, int depth) {
      PdbTypes.need(at, types.endOf(at), 28, index);
      long cls = u32(at + 8);
      long self = u32(at + 12);
      boolean constant = false;
      String first = null;
      if (self != 0) {
        int p = types.at(self);
        boolean ours = false;
        if (p >= 0 && kind(p) == PdbTypes.LF_POINTER) {
          PdbTypes.need(p, types.endOf(p), 12, self);
          long under = u32(p + 4);
          if (under == cls) {
            ours = true;
          } else {
            int m = types.at(under);
            if (m >= 0 && kind(m) == PdbTypes.LF_MODIFIER) {
              PdbTypes.need(m, types.endOf(m), 10, under);
              if (u32(m + 4) == cls) {
                ours = true;
                constant = (u16(m + 8) & 1) != 0;
              }
            }
          }
        }
        if (!ours) {
          first = type(self, depth);
        }
      }
      String args = arguments(u32(at + 20), depth);
      if (first != null) {
        args = args.isEmpty() ? first : first + ", " + args;
      }
      return "(" + args + ")" + (constant && withConst ? " const" : "");
    }

    String type(long index, int depth) {
      enter(index, depth);
      if (index < 0x1000) {
        return simple(index);
      }
      int at = record(index);
      int end = types.endOf(at);
      int kind = kind(at);
      ByteBuffer b = types.bytes();
      return cap(
          switch (kind) {
            case PdbTypes.LF_POINTER -> pointer(at, index, false, depth);
            case PdbTypes.LF_MODIFIER -> {
              PdbTypes.need(at, end, 10, index);
              long under = u32(at + 4);
              int mods = u16(at + 8);
              boolean constant = (mods & 1) != 0;
              if (style == Style.DIA) {
                yield (constant ? "const " : "")
                    + ((mods & 2) != 0 ? "volatile " : "")
                    + type(under, depth + 1);
              }
              int u = under < 0x1000 ? -1 : record(under);
              if (u >= 0 && kind(u) == PdbTypes.LF_POINTER) {
                enter(under, depth + 1);
                yield pointer(u, under, constant, depth + 1);
              }
              if (under < 0x1000 && (under & 0x700) != 0) {
                enter(under, depth + 1);
                yield primitive(under) + (constant ? " const*" : "*");
              }
              yield (constant ? "const " : "") + type(under, depth + 1);
            }
            case PdbTypes.LF_CLASS, PdbTypes.LF_STRUCTURE, PdbTypes.LF_INTERFACE -> {
              PdbTypes.need(at, end, 20, index);
              String name = PdbFile.cString(b, types.skipNumeric(at + 20, end, index), end);
              if (style == Style.SYMBOLIC) {
                yield name;
              }
              yield switch (kind) {
                    case PdbTypes.LF_CLASS -> "class ";
                    case PdbTypes.LF_INTERFACE -> "interface ";
                    default -> "struct ";
                  }
                  + name;
            }
            case PdbTypes.LF_UNION -> {
              PdbTypes.need(at, end, 12, index);
              String name = PdbFile.cString(b, types.skipNumeric(at + 12, end, index), end);
              yield style == Style.SYMBOLIC ? name : "union " + name;
            }
            case PdbTypes.LF_ENUM -> {
              PdbTypes.need(at, end, 16, index);
              String name = PdbFile.cString(b, at + 16, end);
              yield style == Style.SYMBOLIC ? name : "enum " + name;
            }
            case LF_ARRAY -> array(at, index, depth);
            case LF_ARGLIST -> arguments(index, depth);
            case LF_PROCEDURE -> {
              PdbTypes.need(at, end, 16, index);
              // DIA prints a function type as nothing (a function pointer is " *")
              yield style == Style.DIA ? "" : "()(" + arguments(u32(at + 12), depth + 1);
            }
            case LF_MFUNCTION ->
                style == Style.DIA ? "" : "()" + methodArguments(at, index, false, depth + 1);
            default -> "<type 0x" + Integer.toHexString(kind) + ">";
          });
    }

    /** {@code base[n]}, counts from the byte sizes of each level and of the element. */
    String array(int at, long index, int depth) {
      StringBuilder dims = new StringBuilder();
      int a = at;
      long ai = index;
      long bytes;
      long element;
      int d = depth;
      while (true) {
        int end = types.endOf(a);
        PdbTypes.need(a, end, 14, ai);
        bytes = types.numeric(a + 12, end, ai);
        element = u32(a + 4);
        int e = element < 0x1000 ? -1 : record(element);
        long elementSize = size(element, d + 1);
        dims.append('[')
            .append(elementSize == 0 ? "" : Long.toString(bytes / elementSize))
            .append(']');
        if (e < 0 || kind(e) != LF_ARRAY) {
          break;
        }
        enter(element, ++d);
        a = e;
        ai = element;
      }
      return type(element, d + 1) + (style == Style.DIA ? " " : "") + dims;
    }

    /** A pointer or reference, with its pointee's and its own {@code const}. */
    String pointer(int at, long index, boolean constant, int depth) {
      PdbTypes.need(at, types.endOf(at), 12, index);
      long attr = u32(at + 8);
      long under = u32(at + 4);
      if (style == Style.DIA) {
        return type(under, depth + 1)
            + " "
            + sigil(attr)
            + ((attr & 0x400) != 0 || constant ? " const" : "");
      }
      // symbolic: the chain of pointers and modifiers down to the pointee, then its sigils
      List<long[]> chainAttrs = new ArrayList<>(); // {attributes, const, pointee const}
      chainAttrs.add(new long[] {attr, (attr & 0x400) != 0 || constant ? 1 : 0, 0});
      int d = depth;
      long pointee = under;
      while (true) {
        int u = pointee < 0x1000 ? -1 : record(pointee);
        if (u >= 0 && kind(u) == PdbTypes.LF_POINTER) {
          enter(pointee, ++d);
          PdbTypes.need(u, types.endOf(u), 12, pointee);
          long a = u32(u + 8);
          chainAttrs.add(new long[] {a, (a & 0x400) != 0 ? 1 : 0, 0});
          pointee = u32(u + 4);
        } else if (u >= 0 && kind(u) == PdbTypes.LF_MODIFIER) {
          enter(pointee, ++d);
          PdbTypes.need(u, types.endOf(u), 10, pointee);
          chainAttrs.get(chainAttrs.size() - 1)[2] = u16(u + 8) & 1;
          long next = u32(u + 4);
          int n = next < 0x1000 ? -1 : record(next);
          if (n >= 0 && kind(n) == PdbTypes.LF_POINTER) {
            enter(next, ++d);
            PdbTypes.need(n, types.endOf(n), 12, next);
            long a = u32(n + 8);
            chainAttrs.add(new long[] {a, (a & 0x400) != 0 ? 1 : 0, 0});
            pointee = u32(n + 4);
          } else {
            pointee = next;
            break;
          }
        } else {
          break;
        }
        if (chainAttrs.size() > PdbTypes.MAX_DEPTH) {
          throw new PdbFormatException(
              "type index 0x"
                  + Long.toHexString(start)
                  + ": a chain of more than "
                  + PdbTypes.MAX_DEPTH);
        }
      }
      int p = pointee < 0x1000 ? -1 : record(pointee);
      int pk = p < 0 ? -1 : kind(p);
      if (pk == LF_PROCEDURE) {
        enter(pointee, d + 1);
        PdbTypes.need(p, types.endOf(p), 16, pointee);
        return returnType(p + 4, p + 9, d + 2)
            + "("
            + attributes(chainAttrs, false, false)
            + ")("
            + arguments(u32(p + 12), d + 2)
            + ")";
      }
      if (pk == LF_MFUNCTION) {
        enter(pointee, d + 1);
        PdbTypes.need(p, types.endOf(p), 28, pointee);
        return returnType(p + 4, p + 17, d + 2)
            + "("
            + type(u32(p + 8), d + 2)
            + attributes(chainAttrs, false, false)
            + ")"
            + methodArguments(p, pointee, false, d + 2);
      }
      String base = type(pointee, d + 1);
      boolean sigil = base.endsWith("*") || base.endsWith("&");
      return base + attributes(chainAttrs, true, sigil);
    }

    /** A return type and a space, nothing for constructors. */
    String returnType(int typeAt, int attrAt, int depth) {
      long ret = u32(typeAt);
      if ((types.bytes().get(attrAt) & CTOR) != 0 || ret == 0) {
        return "";
      }
      return type(ret, depth) + " ";
    }

    /** pdb-addr2line's sigils: the innermost pointer last written first. */
    String attributes(List<long[]> attrs, boolean spaceFirst, boolean afterSigil) {
      StringBuilder s = new StringBuilder();
      boolean first = true;
      for (int i = attrs.size() - 1; i >= 0; i--) {
        long[] a = attrs.get(i);
        if (a[2] != 0) {
          if (!first || spaceFirst) {
            s.append(' ');
          }
          s.append("const");
        }
        first = false;
        s.append(sigil(a[0]));
        if (a[1] != 0) {
          s.append(" const");
        }
      }
      return s.toString();
    }

    String sigil(long attr) {
      return switch ((int) (attr >> 5) & 7) {
        case 1 -> "&";
        case 2, 3 -> "::*";
        case 4 -> "&&";
        default -> "*";
      };
    }

    String simple(long index) {
      String base = primitive(index);
      if ((index & 0x700) == 0) {
        return base;
      }
      return base + (style == Style.DIA ? " *" : "*");
    }

    String primitive(long index) {
      int k = (int) (index & 0xff);
      boolean dia = style == Style.DIA;
      return switch (k) {
        case 0x00 -> dia ? "" : "<NoType>";
        case 0x03 -> "void";
        case 0x08 -> "HRESULT";
        case 0x10 -> dia ? "char" : "signed char";
        case 0x20, 0x69 -> dia ? "unsigned char" : k == 0x20 ? "unsigned char" : "uint8_t";
        case 0x68 -> dia ? "char" : "int8_t";
        case 0x70 -> "char";
        case 0x71 -> "wchar_t";
        case 0x7a -> "char16_t";
        case 0x7b -> "char32_t";
        case 0x7c -> "char8_t";
        case 0x11 -> "short";
        case 0x21 -> "unsigned short";
        case 0x72 -> dia ? "short" : "int16_t";
        case 0x73 -> dia ? "unsigned short" : "uint16_t";
        case 0x12 -> "long";
        case 0x22 -> "unsigned long";
        case 0x74 -> "int";
        case 0x75 -> "unsigned int";
        case 0x13 -> dia ? "__int64" : "long long";
        case 0x23 -> dia ? "unsigned __int64" : "unsigned long long";
        case 0x76 -> dia ? "__int64" : "int64_t";
        case 0x77 -> dia ? "unsigned __int64" : "uint64_t";
        case 0x14, 0x78 -> dia ? "__int128" : "int128_t";
        case 0x24, 0x79 -> dia ? "unsigned __int128" : "uint128_t";
        case 0x40, 0x45 -> "float";
        case 0x41 -> "double";
        case 0x42, 0x43 -> "long double";
        case 0x44 -> "float48_t";
        case 0x46 -> "float16_t";
        case 0x30 -> "bool";
        case 0x31 -> "bool16_t";
        case 0x32 -> "bool32_t";
        case 0x33 -> "bool64_t";
        default -> "<simple type 0x" + Integer.toHexString(k) + ">";
      };
    }

    long size(long index, int depth) {
      enter(index, depth);
      if (index < 0x1000) {
        if ((index & 0x700) != 0) {
          return pointerSize;
        }
        return switch ((int) (index & 0xff)) {
          case 0x10, 0x20, 0x68, 0x69, 0x70, 0x30, 0x7c -> 1;
          case 0x71, 0x7a, 0x11, 0x21, 0x72, 0x73, 0x31, 0x46 -> 2;
          case 0x7b, 0x12, 0x22, 0x74, 0x75, 0x40, 0x45, 0x32, 0x08 -> 4;
          case 0x13, 0x23, 0x76, 0x77, 0x41, 0x33 -> 8;
          case 0x14, 0x24, 0x78, 0x79, 0x43 -> 16;
          case 0x42 -> 10;
          case 0x44 -> 6;
          default -> 0;
        };
      }
      int at = types.at(index);
      if (at < 0) {
        return 0;
      }
      int end = types.endOf(at);
      return switch (kind(at)) {
        case PdbTypes.LF_POINTER -> {
          PdbTypes.need(at, end, 12, index);
          yield (u32(at + 8) >> 13) & 0x3f;
        }
        case PdbTypes.LF_MODIFIER -> {
          PdbTypes.need(at, end, 10, index);
          yield size(u32(at + 4), depth + 1);
        }
        case PdbTypes.LF_ENUM -> {
          PdbTypes.need(at, end, 16, index);
          yield size(u32(at + 8), depth + 1);
        }
        case PdbTypes.LF_CLASS, PdbTypes.LF_STRUCTURE, PdbTypes.LF_INTERFACE ->
            aggregateSize(at, end, index, 20);
        case PdbTypes.LF_UNION -> aggregateSize(at, end, index, 12);
        case LF_ARRAY -> {
          PdbTypes.need(at, end, 14, index);
          yield types.numeric(at + 12, end, index);
        }
        case LF_PROCEDURE, LF_MFUNCTION -> pointerSize;
        default -> 0;
      };
    }

    /** A class's or union's size; a forward reference's is its complete type's, by name. */
    long aggregateSize(int at, int end, long index, int sizeAt) {
      PdbTypes.need(at, end, sizeAt + 2, index);
      long size = types.numeric(at + sizeAt, end, index);
      if ((u16(at + 6) & 0x80) == 0) {
        return size;
      }
      Long complete = completeSizes().get(aggregateName(at, end, index, sizeAt));
      return complete == null ? size : complete;
    }
  }

  /** The unique name of a class or union when it has one, else its name. */
  private String aggregateName(int at, int end, long index, int sizeAt) {
    ByteBuffer b = types.bytes();
    int nameAt = types.skipNumeric(at + sizeAt, end, index);
    if ((u16(at + 6) & 0x200) != 0) {
      int unique = PdbFile.cStringEnd(b, nameAt, end) + 1;
      if (unique < end) {
        return PdbFile.cString(b, unique, end);
      }
    }
    return PdbFile.cString(b, nameAt, end);
  }

  /** The sizes of complete classes, structures and unions by name, read once. */
  private Map<String, Long> completeSizes() {
    if (completeSizes == null) {
      completeSizes = new HashMap<>();
      for (int i = 0; i < types.size(); i++) {
        long index = 0x1000L + i;
        int at = types.at(types.first() + i);
        int end = types.endOf(at);
        int kind = kind(at);
        int sizeAt =
            switch (kind) {
              case PdbTypes.LF_CLASS, PdbTypes.LF_STRUCTURE, PdbTypes.LF_INTERFACE -> 20;
              case PdbTypes.LF_UNION -> 12;
              default -> -1;
            };
        if (sizeAt < 0 || end - at < sizeAt + 2 || (u16(at + 6) & 0x80) != 0) {
          continue;
        }
        completeSizes.putIfAbsent(
            aggregateName(at, end, index, sizeAt), types.numeric(at + sizeAt, end, index));
      }
    }
    return completeSizes;
  }
}
