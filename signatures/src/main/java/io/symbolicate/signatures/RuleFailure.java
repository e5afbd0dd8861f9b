package io.symbolicate.signatures;

/**
 * A rule stopped where siggen's Python would have raised; the generator catches it per rule and
 * notes {@code "<Rule>: Rule failed: <message>"} as siggen does, so it never leaves the package.
 */
final class RuleFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The Python exception siggen would raise (IndexError, TypeError, ...). */
  final String pythonType;

  RuleFailure(String message) {
    this("Exception", message);
  }

  RuleFailure(String pythonType, String message) {
    super(message, null, false, false);
    this.pythonType = pythonType;
  }
}
