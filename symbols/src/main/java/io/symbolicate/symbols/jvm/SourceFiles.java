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
