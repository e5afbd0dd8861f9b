package io.symbolicate.symbols.js;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * A small JavaScript tokenizer, enough to find function scopes in minified code: identifiers,
 * punctuators, and opaque strings, template chunks, regular expressions, numbers; comments are
 * dropped. Template {@code ${...}} expressions are tokenized normally without emitting their
 * braces. Regex versus division follows the previous significant token, as usual.
 */
final class JsTokenizer {
  enum Kind {
    IDENT,
    PUNCT,
    STRING,
    TEMPLATE,
    NUMBER,
    REGEX
  }

  record Token(Kind kind, int start, int end, String text) {
    boolean is(String p) {
      return (kind == Kind.PUNCT || kind == Kind.IDENT) && text.equals(p);
    }
  }

  private static final String[] PUNCTS = {
    ">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=", "=>", "==", "!=",
    "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
    "<<", ">>", "**"
  };
  private static final Set<String> REGEX_AFTER_WORD =
      Set.of(
          "return",
          "typeof",
          "instanceof",
          "in",
          "of",
          "new",
          "delete",
          "void",
          "throw",
          "case",
          "do",
          "else",
          "yield",
          "await");

  private final String src;
  private final List<Token> out = new ArrayList<>();
  private int p;

  private JsTokenizer(String src) {
    this.src = src;
  }

  static List<Token> tokenize(String src) {
    JsTokenizer t = new JsTokenizer(src);
    t.run();
    return t.out;
  }

  private boolean regexAllowed() {
    if (out.isEmpty()) {
      return true;
    }
    Token last = out.get(out.size() - 1);
    return switch (last.kind) {
      case IDENT -> REGEX_AFTER_WORD.contains(last.text);
      case PUNCT -> !(last.text.equals(")") || last.text.equals("]"));
      default -> false;
    };
  }

  private void run() {
    // brace stack: 0 for '{', 1 for a template's "${"
    int[] braces = new int[64];
    int depth = 0;
    int n = src.length();
    while (p < n) {
      char c = src.charAt(p);
      if (c == ' '
          || c == '\t'
          || c == '\n'
          || c == '\r'
          || c == '\u00a0'
          || c == '\ufeff'
          || c == '\u2028'
          || c == '\u2029'
          || c == '\u000b'
          || c == '\u000c') {
        p++;
      } else if (c == '/' && p + 1 < n && src.charAt(p + 1) == '/') {
        while (p < n && src.charAt(p) != '\n' && src.charAt(p) != '\r') {
          p++;
        }
      } else if (c == '/' && p + 1 < n && src.charAt(p + 1) == '*') {
        int e = src.indexOf("*/", p + 2);
        p = e < 0 ? n : e + 2;
      } else if (c == '\'' || c == '"') {
        int s = p++;
        while (p < n && src.charAt(p) != c) {
          if (src.charAt(p) == '\\') {
            p++;
          }
          p++;
        }
        p = Math.min(n, p + 1);
        out.add(new Token(Kind.STRING, s, p, null));
      } else if (c == '`') {
        p++;
        templateChunk(p - 1);
        if (p >= 2 && src.startsWith("${", p - 2)) {
          if (depth == braces.length) {
            braces = Arrays.copyOf(braces, depth * 2);
          }
          braces[depth++] = 1;
        }
      } else if (c == '}' && depth > 0 && braces[depth - 1] == 1) {
        depth--;
        p++;
        templateChunk(p - 1);
        if (src.startsWith("${", p - 2) && p - 2 >= 0 && src.charAt(p - 1) == '{') {
          braces[depth++] = 1;
        }
      } else if (Character.isJavaIdentifierStart(c) || c == '\\' || c == '#') {
        int s = p++;
        while (p < n && (Character.isJavaIdentifierPart(src.charAt(p)) || src.charAt(p) == '\\')) {
          p++;
        }
        out.add(new Token(Kind.IDENT, s, p, src.substring(s, p)));
      } else if (c >= '0' && c <= '9'
          || c == '.' && p + 1 < n && Character.isDigit(src.charAt(p + 1))) {
        int s = p++;
        while (p < n
            && (Character.isLetterOrDigit(src.charAt(p))
                || src.charAt(p) == '.'
                || src.charAt(p) == '_'
                || (src.charAt(p) == '+' || src.charAt(p) == '-')
                    && (src.charAt(p - 1) == 'e' || src.charAt(p - 1) == 'E')
                    && !src.startsWith("0x", s)
                    && !src.startsWith("0X", s))) {
          p++;
        }
        out.add(new Token(Kind.NUMBER, s, p, null));
      } else if (c == '/' && regexAllowed()) {
        int s = p++;
        boolean inClass = false;
        while (p < n) {
          char r = src.charAt(p);
          if (r == '\\') {
            p += 2;
            continue;
          }
          if (r == '\n' || r == '\r') {
            break;
          }
          p++;
          if (r == '[') {
            inClass = true;
          } else if (r == ']') {
            inClass = false;
          } else if (r == '/' && !inClass) {
            break;
          }
        }
        while (p < n && Character.isJavaIdentifierPart(src.charAt(p))) {
          p++;
        }
        out.add(new Token(Kind.REGEX, s, Math.min(p, n), null));
      } else {
        String punct = null;
        for (String x : PUNCTS) {
          if (src.startsWith(x, p)) {
            punct = x;
            break;
          }
        }
        if (punct == null) {
          punct = String.valueOf(c);
        }
        if (c == '{') {
          if (depth == braces.length) {
            braces = Arrays.copyOf(braces, depth * 2);
          }
          braces[depth++] = 0;
        } else if (c == '}' && depth > 0) {
          depth--;
        }
        out.add(new Token(Kind.PUNCT, p, p + punct.length(), punct));
        p += punct.length();
      }
    }
  }

  /** Scans template text from after '`' or '}' up to the closing '`' or a "${". */
  private void templateChunk(int start) {
    int n = src.length();
    while (p < n) {
      char c = src.charAt(p);
      if (c == '\\') {
        p += 2;
        continue;
      }
      if (c == '`') {
        p++;
        out.add(new Token(Kind.TEMPLATE, start, p, null));
        return;
      }
      if (c == '$' && p + 1 < n && src.charAt(p + 1) == '{') {
        p += 2;
        out.add(new Token(Kind.TEMPLATE, start, p, null));
        return;
      }
      p++;
    }
    p = Math.min(p, n);
    out.add(new Token(Kind.TEMPLATE, start, p, null));
  }
}
