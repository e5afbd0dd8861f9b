package io.symbolicate.symbols.demangle;

/** The output of one demangling: a bounded StringBuilder plus the state of pack expansions. */
final class Printer {
  /** Longest output: names that expand substitutions exponentially are refused, not printed. */
  static final int MAX_OUTPUT = 1 << 17;

  final StringBuilder out;

  /** A printer for a name of {@code inputLength} characters (output is ~4x input, often more). */
  Printer(int inputLength) {
    out = new StringBuilder(Math.min(MAX_OUTPUT, Math.max(64, inputLength * 4)));
  }

  Printer() {
    this(16);
  }

  /** Element of the argument pack being expanded, or -1 outside a pack expansion. */
  int packIndex = -1;

  /** Size of the pack met while sizing an expansion, or -1 when none was met. */
  int packSize = -1;

  /** Template arguments that template parameters name: the innermost function template's. */
  static final class Frame {
    final Node[] args;
    final Frame next;

    Frame(Node[] args, Frame next) {
      this.args = args;
      this.next = next;
    }
  }

  Frame templates;

  /** The template whose name is being printed, for a conversion operator's type. */
  Nodes.Template currentTemplate;

  /** Inside a lambda's parameters template parameters print as {@code auto:N}. */
  int lambdaArgs;

  /** Printing depth: substitutions make a DAG whose printed depth is bounded here. */
  int depth;

  /**
   * The last character appended. Like libiberty's {@code last_char} it is not taken back when a
   * separator is (so {@code f<a, b, >} with an empty pack closes as {@code >>}).
   */
  char last;

  /**
   * Characters appended in all, counting those taken back: pack expansions print their pattern
   * once to size it, so nested expansions could otherwise take exponential time.
   */
  private long work;

  private static final long MAX_WORK = 8L * MAX_OUTPUT;

  Printer append(String s) {
    work += s.length();
    if (out.length() + s.length() > MAX_OUTPUT || work > MAX_WORK) {
      throw ItaniumParser.FAIL;
    }
    if (!s.isEmpty()) {
      out.append(s);
      last = s.charAt(s.length() - 1);
    }
    return this;
  }

  Printer append(char c) {
    if (out.length() >= MAX_OUTPUT || ++work > MAX_WORK) {
      throw ItaniumParser.FAIL;
    }
    out.append(c);
    last = c;
    return this;
  }

  /** Counts a step that may append nothing (pack expansions, template parameters). */
  void tick() {
    if (++work > MAX_WORK) {
      throw ItaniumParser.FAIL;
    }
  }

  char last() {
    return last;
  }

  int length() {
    return out.length();
  }

  void truncate(int length) {
    out.setLength(length);
  }

  /** Enters a node printed in place of a template parameter; bounds the printed depth. */
  void enter(Node n) {
    depth += n.depth;
    if (depth > 4 * Node.MAX_DEPTH) {
      throw ItaniumParser.FAIL;
    }
  }

  void leave(Node n) {
    depth -= n.depth;
  }

  @Override
  public String toString() {
    return out.toString();
  }
}
