package io.symbolicate.symbols.jvm;

/**
 * One original frame. {@code line} is -1 when there is no line to print. {@code alternative}
 * numbers the inline chain the frame belongs to: frames of one chain share it, and a result with
 * more than one alternative is ambiguous. {@code chainEntry} is the index (within its method)
 * of the mapping line that starts the frame's chain: alternatives that only differ in the line of
 * one ambiguous original range share it.
 */
public record RetracedFrame(
    String className,
    String method,
    int line,
    String declaredFile,
    String outerSourceFile,
    boolean synthesized,
    int methodId,
    int chainEntry,
    int alternative,
    RewriteRule[] rules) {

  /** File name as R8 retrace prints it: the declared file, else derived from the class name. */
  public String r8File(String inputFile) {
    if (declaredFile != null) {
      return declaredFile;
    }
    return SourceFiles.r8Synthesize(className, inputFile);
  }

  /** File name as rust-proguard / Sentry print it (Kotlin "Kt" rule, R8$$SyntheticClass). */
  public String sentryFile() {
    if (declaredFile != null) {
      return "R8$$SyntheticClass".equals(declaredFile)
          ? SourceFiles.outerSimpleName(className)
          : declaredFile;
    }
    return SourceFiles.synthesize(className, outerSourceFile);
  }
}
