package io.symbolicate.symbols.js;

import io.symbolicate.symbols.js.JsTokenizer.Kind;
import io.symbolicate.symbols.js.JsTokenizer.Token;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Function scopes of a minified file and their ORIGINAL names, the way Sentry's
 * js-source-scopes does it: find every function (declarations, expressions, arrows, methods),
 * name it by its own identifier or by what it is assigned to ({@code a.b = function(){}},
 * {@code const t = () => ...}, {@code key: function(){}}), then map each identifier of that name
 * through the sourcemap (the segment starting exactly at the identifier, when it carries a name).
 * The result is flattened into non-overlapping intervals, each giving the innermost scope.
 */
public final class MinifiedScopes {
  /** Scope kinds as Sentry reports them. */
  public enum ScopeKind {
    NAMED,
    ANONYMOUS,
    UNKNOWN
  }

  /**
   * From {@code (line, column)} on (0-based, UTF-16), up to the next interval, the innermost
   * scope is {@code name} (null for an anonymous function, or for no function at all when
   * {@code kind == UNKNOWN}); {@code mapped} says whether every identifier of the name was
   * mapped through the sourcemap (false: the minified identifier was kept).
   */
  public record Interval(int line, int column, ScopeKind kind, String name, boolean mapped) {}

  /** Maps a minified identifier at a generated position to its original name, or null. */
  @FunctionalInterface
  public interface NameMapper {
    String originalName(int line, int column);
  }

  private static final Set<String> NOT_METHODS =
      Set.of(
          "if",
          "for",
          "while",
          "switch",
          "catch",
          "with",
          "function",
          "return",
          "typeof",
          "new",
          "delete",
          "void",
          "throw",
          "await",
          "yield",
          "in",
          "of",
          "instanceof",
          "do",
          "else",
          "case",
          "super",
          "import");
  private static final Set<String> METHOD_PREFIX_OK =
      Set.of("{", ",", "}", ";", "*", "get", "set", "static", "async");

  private static final class Scope {
    final int start;
    final int end;
    final List<Token> name;
    // the name as mapped through the sourcemap, once: a scope is emitted again after each child
    String resolved;
    boolean mapped;

    Scope(int start, int end, List<Token> name) {
      this.start = start;
      this.end = end;
      this.name = name;
    }

    int start() {
      return start;
    }

    int end() {
      return end;
    }
  }

  private final String src;
  private final int[] lineStarts;

  private MinifiedScopes(String src) {
    this.src = src;
    List<Integer> starts = new ArrayList<>();
    starts.add(0);
    for (int i = 0; i < src.length(); i++) {
      char c = src.charAt(i);
      if (c == '\n' || c == '\r' && (i + 1 >= src.length() || src.charAt(i + 1) != '\n')) {
        starts.add(i + 1);
      }
    }
    lineStarts = starts.stream().mapToInt(Integer::intValue).toArray();
  }

  /** Extracts the scopes of {@code minified} and names them through {@code mapper}. */
  public static List<Interval> extract(String minified, NameMapper mapper) {
    return new MinifiedScopes(minified).run(mapper);
  }

  private int line(int offset) {
    int i = Arrays.binarySearch(lineStarts, offset);
    return i >= 0 ? i : -i - 2;
  }

  private List<Interval> run(NameMapper mapper) {
    List<Token> t = JsTokenizer.tokenize(src);
    int n = t.size();
    // matching brackets, and the innermost '{' open at each token (an unclosed one counts)
    int[] match = new int[n];
    Arrays.fill(match, -1);
    int[] enclosingBrace = new int[n];
    int[] stack = new int[64];
    int[] braceAt = new int[64]; // per stack entry: the innermost '{' at or below it, or -1
    int depth = 0;
    for (int i = 0; i < n; i++) {
      enclosingBrace[i] = depth == 0 ? -1 : braceAt[depth - 1];
      Token k = t.get(i);
      if (k.kind() != Kind.PUNCT) {
        continue;
      }
      switch (k.text()) {
        case "(", "[", "{" -> {
          if (depth == stack.length) {
            stack = Arrays.copyOf(stack, depth * 2);
            braceAt = Arrays.copyOf(braceAt, depth * 2);
          }
          stack[depth] = i;
          braceAt[depth] = k.text().equals("{") ? i : depth == 0 ? -1 : braceAt[depth - 1];
          depth++;
        }
        case ")", "]", "}" -> {
          if (depth > 0) {
            int o = stack[--depth];
            match[o] = i;
            match[i] = o;
          }
        }
        default -> {}
      }
    }
    int[] exprEnds = null; // arrows' expression-body ends, computed when the first one is needed
    // class bodies: the '{' after "class Name? (extends X)?"
    Map<Integer, Token> classBody = new HashMap<>();
    for (int i = 0; i < n; i++) {
      if (t.get(i).kind() == Kind.IDENT && t.get(i).text().equals("class")) {
        Token name =
            i + 1 < n && t.get(i + 1).kind() == Kind.IDENT && !t.get(i + 1).text().equals("extends")
                ? t.get(i + 1)
                : null;
        for (int j = i + 1; j < n && j < i + 64; j++) {
          if (t.get(j).is("{")) {
            classBody.put(j, name);
            break;
          }
        }
      }
    }
    List<Scope> scopes = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Token k = t.get(i);
      if (k.kind() == Kind.IDENT
          && k.text().equals("function")
          && !(i > 0 && t.get(i - 1).is("."))) {
        int j = i + 1;
        if (j < n && t.get(j).is("*")) {
          j++;
        }
        Token own = j < n && t.get(j).kind() == Kind.IDENT ? t.get(j) : null;
        if (own != null) {
          j++;
        }
        if (j >= n || !t.get(j).is("(") || match[j] < 0) {
          continue;
        }
        int body = match[j] + 1;
        if (body >= n || !t.get(body).is("{") || match[body] < 0) {
          continue;
        }
        int first = i > 0 && t.get(i - 1).is("async") ? i - 1 : i;
        List<Token> name = own != null ? List.of(own) : inferName(t, first);
        scopes.add(new Scope(t.get(first).start(), t.get(match[body]).end(), name));
      } else if (k.is("=>")) {
        int first;
        if (i > 0 && t.get(i - 1).is(")") && match[i - 1] >= 0) {
          first = match[i - 1];
        } else if (i > 0 && t.get(i - 1).kind() == Kind.IDENT) {
          first = i - 1;
        } else {
          continue;
        }
        if (first > 0 && t.get(first - 1).is("async")) {
          first--;
        }
        int end;
        if (i + 1 < n && t.get(i + 1).is("{") && match[i + 1] >= 0) {
          end = t.get(match[i + 1]).end();
        } else {
          if (exprEnds == null) {
            exprEnds = expressionEnds(t, match);
          }
          end = expressionEnd(t, exprEnds, i + 1);
        }
        scopes.add(new Scope(t.get(first).start(), end, inferName(t, first)));
      } else if (k.is("(")
          && i > 0
          && match[i] >= 0
          && match[i] + 1 < n
          && t.get(match[i] + 1).is("{")
          && match[match[i] + 1] >= 0) {
        // method: key(params) { body } inside a class body or an object literal
        Token key = t.get(i - 1);
        boolean named =
            key.kind() == Kind.IDENT && !NOT_METHODS.contains(key.text())
                || key.kind() == Kind.STRING
                || key.kind() == Kind.NUMBER;
        if (!named || i < 2) {
          continue;
        }
        Token before = t.get(i - 2);
        if (!(before.kind() == Kind.PUNCT || before.kind() == Kind.IDENT)
            || !METHOD_PREFIX_OK.contains(before.text())
            || before.is("function")) {
          continue;
        }
        int body = match[i] + 1;
        List<Token> name = new ArrayList<>();
        int parent = enclosingBrace[i - 1];
        if (parent >= 0 && classBody.containsKey(parent) && classBody.get(parent) != null) {
          name.add(classBody.get(parent));
        }
        if (key.kind() == Kind.IDENT) {
          name.add(key);
        }
        scopes.add(new Scope(key.start(), t.get(match[body]).end(), name));
      }
    }
    return flatten(scopes, mapper);
  }

  private static boolean endsExpression(Token k) {
    return k.is(",") || k.is(";") || k.is(")") || k.is("]") || k.is("}");
  }

  /**
   * End offset of an arrow's expression body starting at token {@code from}: up to ',' ';' or a
   * closing bracket at depth 0 (bracketed groups are skipped whole; an unclosed one runs to the
   * end of the file).
   */
  private static int expressionEnd(List<Token> t, int[] exprEnds, int from) {
    if (from >= t.size()) {
      return t.get(t.size() - 1).end();
    }
    return endsExpression(t.get(from)) ? t.get(from).end() : exprEnds[from];
  }

  /**
   * For every token that does not end an expression, where an expression body running through it
   * ends (see {@link #expressionEnd}), filled from the last token back: each token's answer is
   * the next one's, so nested arrows ({@code a=>a=>a=>...}) take one pass, not one scan each.
   */
  private static int[] expressionEnds(List<Token> t, int[] match) {
    int n = t.size();
    int fileEnd = t.get(n - 1).end();
    int[] ends = new int[n];
    for (int j = n - 1; j >= 0; j--) {
      Token k = t.get(j);
      if (endsExpression(k)) {
        continue;
      }
      int next;
      int end;
      if (k.is("(") || k.is("[") || k.is("{")) {
        if (match[j] < 0) {
          ends[j] = fileEnd;
          continue;
        }
        next = match[j] + 1;
        end = t.get(match[j]).end();
      } else {
        next = j + 1;
        end = k.end();
      }
      ends[j] = next >= n || endsExpression(t.get(next)) ? end : ends[next];
    }
    return ends;
  }

  /**
   * The name an anonymous function gets from its context: {@code a.b.c = f},
   * {@code var x = f}, {@code key: f}; empty when anonymous.
   */
  private static List<Token> inferName(List<Token> t, int first) {
    if (first < 2) {
      return List.of();
    }
    Token prev = t.get(first - 1);
    if (prev.is("=")) {
      List<Token> chain = new ArrayList<>();
      int j = first - 2;
      while (j >= 0 && t.get(j).kind() == Kind.IDENT) {
        chain.add(t.get(j));
        if (j >= 2 && t.get(j - 1).is(".")) {
          j -= 2;
        } else {
          break;
        }
      }
      Collections.reverse(chain); // collected from the last identifier back
      return chain;
    }
    if (prev.is(":") && first >= 3) {
      Token key = t.get(first - 2);
      Token before = t.get(first - 3);
      if (key.kind() == Kind.IDENT && (before.is("{") || before.is(","))) {
        return List.of(key);
      }
    }
    return List.of();
  }

  private List<Interval> flatten(List<Scope> scopes, NameMapper mapper) {
    scopes.sort(
        Comparator.comparingInt(Scope::start)
            .thenComparing(Comparator.comparingInt(Scope::end).reversed()));
    // resolved names, one per scope
    List<Interval> out = new ArrayList<>();
    Deque<Scope> open = new ArrayDeque<>();
    int pos = 0;
    int idx = 0;
    while (idx < scopes.size() || !open.isEmpty()) {
      Scope next = idx < scopes.size() ? scopes.get(idx) : null;
      Scope top = open.peek();
      if (top != null && (next == null || top.end() <= next.start())) {
        open.pop();
        emit(out, top.end(), open.peek(), mapper);
        continue;
      }
      if (top != null && next.end() > top.end()) {
        idx++; // not properly nested (a tokenizer misread): ignore it
        continue;
      }
      open.push(next);
      idx++;
      emit(out, next.start(), next, mapper);
    }
    return out;
  }

  private void emit(List<Interval> out, int offset, Scope s, NameMapper mapper) {
    int line = line(offset);
    int col = offset - lineStarts[line];
    Interval iv;
    if (s == null) {
      iv = new Interval(line, col, ScopeKind.UNKNOWN, null, false);
    } else if (s.name.isEmpty()) {
      iv = new Interval(line, col, ScopeKind.ANONYMOUS, null, false);
    } else {
      if (s.resolved == null) {
        StringBuilder sb = new StringBuilder();
        boolean mapped = true;
        for (Token k : s.name) {
          if (sb.length() > 0) {
            sb.append('.');
          }
          int l = line(k.start());
          String orig = mapper.originalName(l, k.start() - lineStarts[l]);
          mapped &= orig != null;
          sb.append(
              orig != null ? orig : src,
              orig != null ? 0 : k.start(),
              orig != null ? orig.length() : k.end());
        }
        s.resolved = sb.toString();
        s.mapped = mapped;
      }
      iv = new Interval(line, col, ScopeKind.NAMED, s.resolved, s.mapped);
    }
    // several boundaries at one offset: the last one wins
    if (!out.isEmpty()
        && out.get(out.size() - 1).line() == line
        && out.get(out.size() - 1).column() == col) {
      out.set(out.size() - 1, iv);
    } else {
      out.add(iv);
    }
  }
}
