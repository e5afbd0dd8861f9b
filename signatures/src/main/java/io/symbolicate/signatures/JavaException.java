package io.symbolicate.signatures;

import java.util.Objects;

/**
 * siggen's {@code java_exception} value. Only the stack trace of the first value of the cascade
 * (the exception that started it) makes the signature, so that is all this keeps. A value that
 * is present but not in that structure is kept as such: siggen answers it with
 * "EMPTY: Java exception not in expected format", or with a failed rule where Python would raise.
 */
public final class JavaException {
  enum Shape {
    STACK_TRACE,
    NOT_EXPECTED_FORMAT,
    RULE_FAILS
  }

  final Shape shape;
  final JavaStackTrace first;
  final String failure;

  private JavaException(Shape shape, JavaStackTrace first, String failure) {
    this.shape = shape;
    this.first = first;
    this.failure = failure;
  }

  /** The exception whose first cascade value has this stack trace. */
  public static JavaException of(JavaStackTrace firstOfCascade) {
    return new JavaException(Shape.STACK_TRACE, Objects.requireNonNull(firstOfCascade), null);
  }

  /** A value present (truthy) but not in the expected structure. */
  public static JavaException notInExpectedFormat() {
    return new JavaException(Shape.NOT_EXPECTED_FORMAT, null, null);
  }

  /** A structure on which siggen's Python raises (e.g. a stack trace that is a string). */
  static JavaException ruleFails(String pythonMessage) {
    return new JavaException(Shape.RULE_FAILS, null, pythonMessage);
  }

  public JavaStackTrace firstStackTrace() {
    return first;
  }
}
