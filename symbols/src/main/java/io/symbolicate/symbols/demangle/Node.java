package io.symbolicate.symbols.demangle;

/**
 * A node of a demangled C++ name. Types print in two parts around a declarator (the way C
 * writes {@code void (*)(int)} or {@code int (&) [4]}): {@link #left} before it and {@link
 * #right} after it; everything else prints only a left part.
 */
abstract class Node {
  /** Deepest nodes a name may nest: bounds the printer's recursion. */
  static final int MAX_DEPTH = 256;

  final int depth;

  Node(Node... children) {
    int d = 0;
    for (Node c : children) {
      if (c != null && c.depth > d) {
        d = c.depth;
      }
    }
    if (d >= MAX_DEPTH) {
      throw ItaniumParser.FAIL;
    }
    this.depth = d + 1;
  }

  abstract void left(Printer p);

  void right(Printer p) {}

  /** Whether the right part holds a function's parameters or an array's bounds. */
  boolean hasRight(Printer p) {
    return false;
  }

  boolean isFunction(Printer p) {
    return false;
  }

  boolean isArray(Printer p) {
    return false;
  }

  final void print(Printer p) {
    left(p);
    right(p);
  }

  /** This node with template parameters and forward references replaced by what they name. */
  Node resolve(Printer p) {
    return this;
  }
}
