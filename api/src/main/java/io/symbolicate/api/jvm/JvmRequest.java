package io.symbolicate.api.jvm;

import java.util.List;

/**
 * A parsed {@code POST /symbolicate-jvm} request in Symbolicator's shape. Exceptions and stack
 * traces are separate lists, as Sentry sends them. Fields we accept but do not act on
 * ({@code sources}, {@code platform}, {@code options}) are not kept; {@code source} modules
 * (JVM source bundles) are accepted and skipped.
 *
 * @param releasePackage marks remapped frames of this package {@code in_app}, as Symbolicator does
 */
public record JvmRequest(
    List<ExceptionType> exceptions,
    List<Stacktrace> stacktraces,
    List<Module> modules,
    List<String> classes,
    String release,
    String releasePackage) {

  public record ExceptionType(String type, String module) {}

  public record Stacktrace(List<Frame> frames) {}

  /** A ProGuard mapping module; {@code uuid} is normalised (lowercase, hyphenated). */
  public record Module(String uuid) {}

  /** A frame as sent: {@code module} is the class, {@code function} the method. */
  public record Frame(
      String function,
      String filename,
      String module,
      String absPath,
      int lineno,
      List<String> preContext,
      String contextLine,
      List<String> postContext,
      Boolean inApp,
      int index) {}
}
