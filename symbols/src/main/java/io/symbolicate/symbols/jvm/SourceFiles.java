package io.symbolicate.symbols.jvm;

/** Source file names derived from class names when the mapping declares none. */
public final class SourceFiles {
  private SourceFiles() {}

  /** {@code a.b.Outer$Inner} to {@code Outer}. */
  public static String outerSimpleName(String className) {
    int dot = className.lastIndexOf('.');
    int dollar = className.indexOf('$', dot + 1);
    return dollar < 0 ? className.substring(dot + 1) : className.substring(dot + 1, dollar);
  }

  /** The extension of a file name including the dot, or the fallback. */
  public static String extensionOr(String file, String fallback) {
    if (file == null) {
      return fallback;
    }
    int dot = file.lastIndexOf('.');
    return dot < 0 ? fallback : file.substring(dot);
  }

  /**
   * R8 retrace's rule: a ".kt" file in the trace gives {@code Outer.kt} (without a "Kt" suffix),
   * any other extension gives {@code Outer.java}; without an extension (SourceFile, Unknown
   * Source) the class name decides: {@code FooKt} gives {@code Foo.kt}, others {@code .java}.
   */
  public static String r8Synthesize(String className, String inputFile) {
    String ext = extensionOr(inputFile, null);
    return r8Synthesize(
        className, ext == null ? NO_EXTENSION : ext.equals(".kt") ? KT_EXTENSION : OTHER_EXTENSION);
  }

  /** Kinds of input file names for {@link #r8Synthesize(String, int)}. */
  static final int NO_EXTENSION = 0;

  static final int KT_EXTENSION = 1;
  static final int OTHER_EXTENSION = 2;

  /** {@link #r8Synthesize(String, String)} with the input file reduced to its extension kind. */
  static String r8Synthesize(String className, int inputKind) {
    String base = outerSimpleName(className);
    boolean kt = base.length() > 2 && base.endsWith("Kt");
    if (inputKind == NO_EXTENSION) {
      return kt ? base.substring(0, base.length() - 2) + ".kt" : base + ".java";
    }
    if (inputKind == KT_EXTENSION) {
      return (kt ? base.substring(0, base.length() - 2) : base) + ".kt";
    }
    return base + ".java";
  }

  /**
   * rust-proguard's rule: top-level Kotlin classes ({@code FooKt}) become {@code Foo.kt};
   * otherwise the outer simple name with the reference file's extension, else ".java".
   */
  public static String synthesize(String className, String referenceFile) {
    String base = outerSimpleName(className);
    if (base.length() > 2 && base.endsWith("Kt")) {
      return base.substring(0, base.length() - 2) + ".kt";
    }
    return base + extensionOr(referenceFile, ".java");
  }
}
