package io.symbolicate.api.jvm;

import java.util.List;

/**
 * A parsed {@code POST /symbolicate-jvm} request in Symbolicator's shape. Exceptions and stack
 * traces are separate lists, as Sentry sends them. Fields we accept but do not act on
 * ({@code sources}, {@code platform}, {@code options} other than {@code apply_source_context})
 * are not kept.
 *
 * @param sourceBundles the debug ids (normalised UUIDs) of the {@code source} modules: JVM source
 *     bundles, for context lines
 * @param releasePackage marks remapped frames of this package {@code in_app}, as Symbolicator does
 * @param applySourceContext {@code options.apply_source_context} (default true)
 */
public record JvmRequest(
    List<ExceptionType> exceptions,
    List<Stacktrace> stacktraces,
    List<Module> modules,
    List<String> sourceBundles,
    List<String> classes,
    String release,
    String releasePackage,
    boolean applySourceContext) {

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
