package io.symbolicate.symbols.jvm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Page format (version 1): a page-local table of deduplicated UTF-8 strings, then the classes.
 * Everything is LEB128 varints except the 8-byte class keys.
 *
 * <pre>
 * page    := nStrings string* nClasses class*
 * class   := key:u64 obf:str orig:str (sourceFile+1):varint flags:u8 nMethods method*
 * method  := obfName:str flags:u8 nEntries entry*
 * entry   := flags:varint [obfStart obfEnd] [origStart] [origEnd] [origClass:str] name:str methodId
 *            [declaredFile:str] [nRules rule*] [nPairs (pos line)*]
 * rule    := nThrows descriptor:str* unknown:u8 removeInnerFrames:varint
 * </pre>
 * ("str" is an index into the page's string table.)
 */
final class JvmPageFormat {
  private JvmPageFormat() {}

  private static final int F_OBF = 1;
  private static final int F_ORIG_START = 2;
  private static final int F_ORIG_END = 4;
  private static final int F_ORIG_CLASS = 8;
  private static final int F_FILE = 16;
  private static final int F_SYNTH = 32;
  private static final int F_CHAIN = 64;
  private static final int F_RULES = 128;
  private static final int F_OUTLINE_POS = 256;

  static final class Encoder {
    private final Map<String, Integer> index = new HashMap<>();
    private final List<String> strings = new ArrayList<>();
    private final Bytes.Writer body = new Bytes.Writer();
    private int classes;
    private int stringBytes;

    int classCount() {
      return classes;
    }

    int estimatedSize() {
      return body.size() + stringBytes;
    }

    private int s(String v) {
      Integer i = index.get(v);
      if (i == null) {
        i = strings.size();
        strings.add(v);
        index.put(v, i);
        stringBytes += v.length() + 1;
      }
      return i;
    }

    void add(long key, JvmClass c) {
      classes++;
      body.i64(key);
      body.varint(s(c.obfuscatedName()));
      body.varint(s(c.originalName()));
      body.varint(c.sourceFile() == null ? 0 : s(c.sourceFile()) + 1L);
      body.u8(c.synthesized() ? 1 : 0);
      body.varint(c.methods().length);
      for (MethodMapping mm : c.methods()) {
        body.varint(s(mm.obfuscatedName()));
        body.u8(mm.outline() ? 1 : 0);
        body.varint(mm.entries().length);
        for (MemberEntry e : mm.entries()) {
          int f =
              (e.obfEnd() >= 0 ? F_OBF : 0)
                  | (e.origStart() >= 0 ? F_ORIG_START : 0)
                  | (e.origEnd() >= 0 ? F_ORIG_END : 0)
                  | (e.origClass() != null ? F_ORIG_CLASS : 0)
                  | (e.declaredFile() != null ? F_FILE : 0)
                  | (e.synthesized() ? F_SYNTH : 0)
                  | (e.chainStart() ? F_CHAIN : 0)
                  | (e.rules().length > 0 ? F_RULES : 0)
                  | (e.outlinePositions() != null ? F_OUTLINE_POS : 0);
          body.varint(f);
          if (e.obfEnd() >= 0) {
            body.varint(e.obfStart());
            body.varint(e.obfEnd() - (long) e.obfStart());
          }
          if (e.origStart() >= 0) {
            body.varint(e.origStart());
          }
          if (e.origEnd() >= 0) {
            // Usually equal to origStart or close above it: store the zigzag difference.
            long d = (long) e.origEnd() - (e.origStart() >= 0 ? e.origStart() : 0);
            body.varint((d << 1) ^ (d >> 63));
          }
          if (e.origClass() != null) {
            body.varint(s(e.origClass()));
          }
          body.varint(s(e.name()));
          body.varint(e.methodId());
          if (e.declaredFile() != null) {
            body.varint(s(e.declaredFile()));
          }
          if (e.rules().length > 0) {
            body.varint(e.rules().length);
            for (RewriteRule r : e.rules()) {
              body.varint(r.throwsDescriptors().length);
              for (String d : r.throwsDescriptors()) {
                body.varint(s(d));
              }
              body.u8(r.hasUnknownCondition() ? 1 : 0);
              body.varint(r.removeInnerFrames());
            }
          }
          if (e.outlinePositions() != null) {
            int[] p = e.outlinePositions();
            body.varint(p.length / 2);
            for (int v : p) {
              body.varint(v & 0xffffffffL);
            }
          }
        }
      }
    }

    byte[] finish() {
      Bytes.Writer w = new Bytes.Writer();
      w.varint(strings.size());
      for (String v : strings) {
        w.string(v);
      }
      w.varint(classes);
      byte[] head = w.toByteArray();
      byte[] b = body.toByteArray();
      byte[] all = new byte[head.length + b.length];
      System.arraycopy(head, 0, all, 0, head.length);
      System.arraycopy(b, 0, all, head.length, b.length);
      return all;
    }
  }

  /** Decodes one page; throws {@link MappingException} on corrupt or truncated bytes. */
  static JvmPage decode(byte[] bytes) {
    Bytes.Reader r = new Bytes.Reader(bytes);
    int ns = r.count();
    String[] str = new String[ns];
    for (int i = 0; i < ns; i++) {
      str[i] = r.string();
    }
    int nc = r.count();
    long[] keys = new long[nc];
    JvmClass[] classes = new JvmClass[nc];
    for (int ci = 0; ci < nc; ci++) {
      keys[ci] = r.i64();
      String obf = get(str, r.varint());
      String orig = get(str, r.varint());
      int sf = r.varint();
      String sourceFile = sf == 0 ? null : get(str, sf - 1);
      boolean synth = (r.u8() & 1) != 0;
      int nm = r.count();
      String[] names = new String[nm];
      MethodMapping[] methods = new MethodMapping[nm];
      for (int mi = 0; mi < nm; mi++) {
        names[mi] = get(str, r.varint());
        boolean outline = (r.u8() & 1) != 0;
        int ne = r.count();
        MemberEntry[] entries = new MemberEntry[ne];
        for (int ei = 0; ei < ne; ei++) {
          entries[ei] = entry(r, str);
        }
        methods[mi] = MethodMapping.of(names[mi], entries, outline);
      }
      classes[ci] = JvmClass.of(obf, orig, sourceFile, synth, methods);
    }
    if (!r.atEnd()) {
      throw new MappingException("corrupt table: trailing bytes after the last class");
    }
    return new JvmPage(keys, classes);
  }

  private static MemberEntry entry(Bytes.Reader r, String[] str) {
    int f = r.varint();
    int obfStart = -1;
    int obfEnd = -1;
    if ((f & F_OBF) != 0) {
      obfStart = r.varint();
      obfEnd = clamp((long) obfStart + r.varlong());
    }
    int origStart = (f & F_ORIG_START) != 0 ? r.varint() : -1;
    int origEnd = -1;
    if ((f & F_ORIG_END) != 0) {
      long z = r.varlong();
      long d = (z >>> 1) ^ -(z & 1);
      origEnd = clamp((origStart >= 0 ? origStart : 0) + d);
    }
    String origClass = (f & F_ORIG_CLASS) != 0 ? get(str, r.varint()) : null;
    String name = get(str, r.varint());
    int methodId = r.varint();
    String file = (f & F_FILE) != 0 ? get(str, r.varint()) : null;
    RewriteRule[] rules = MemberEntry.NO_RULES;
    if ((f & F_RULES) != 0) {
      rules = new RewriteRule[r.count()];
      for (int i = 0; i < rules.length; i++) {
        String[] d = new String[r.count()];
        for (int k = 0; k < d.length; k++) {
          d[k] = get(str, r.varint());
        }
        boolean unknown = r.u8() != 0;
        rules[i] = new RewriteRule(d, unknown, r.varint());
      }
    }
    int[] pos = null;
    if ((f & F_OUTLINE_POS) != 0) {
      pos = new int[r.count() * 2];
      for (int i = 0; i < pos.length; i++) {
        pos[i] = (int) r.varlong();
      }
    }
    return new MemberEntry(
        obfStart,
        obfEnd,
        origStart,
        origEnd,
        origClass,
        name,
        file,
        methodId,
        (f & F_SYNTH) != 0,
        (f & F_CHAIN) != 0,
        rules,
        pos);
  }

  private static int clamp(long v) {
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw new MappingException("corrupt table: line number out of range");
    }
    return (int) v;
  }

  private static String get(String[] str, int i) {
    if (i >= str.length) {
      throw new MappingException("corrupt table: string index " + i + " out of range");
    }
    return str[i];
  }
}
