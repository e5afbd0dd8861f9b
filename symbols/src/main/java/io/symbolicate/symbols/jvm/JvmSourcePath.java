package io.symbolicate.symbols.jvm;

/**
 * Where a JVM frame's source file is in a JVM source bundle: the URL {@code sentry-cli debug-files
 * bundle-jvm} gives each file, {@code ~/<package path>/<file name without extension>.jvm}, built
 * from the (deobfuscated) class and the frame's source file name as Symbolicator builds it. The
 * extension is always {@code .jvm}: the bundle does not keep the {@code .java}/{@code .kt} one,
 * since a frame's file name may not tell it.
 */
public final class JvmSourcePath {
  private JvmSourcePath() {}

  /**
   * The bundle URL of the source of a frame in class {@code className} (fully qualified) whose
   * file is {@code fileName} (its {@code abs_path}, else {@code filename}; may be null). A file
   * name with a {@code .} and no {@code $} names the file within the class's package ({@code
   * MainActivity.kt} in {@code io.sentry.samples.MainActivity$Inner} gives {@code
   * ~/io/sentry/samples/MainActivity.jvm}); otherwise ({@code SourceFile}, {@code Unknown
   * Source}, none) the outer class's name is the file's.
   */
  public static String of(String className, String fileName) {
    String stem = stem(fileName);
    if (stem != null) {
      int dot = className.lastIndexOf('.');
      String pkg = dot < 0 ? "" : className.substring(0, dot).replace('.', '/') + "/";
      return "~/" + pkg + stem + ".jvm";
    }
    int dollar = className.indexOf('$');
    String outer = dollar < 0 ? className : className.substring(0, dollar);
    return "~/" + outer.replace('.', '/') + ".jvm";
  }

  /** The file name before its last {@code .}, or null when it has none or has a {@code $}. */
  private static String stem(String fileName) {
    if (fileName == null || fileName.indexOf('$') >= 0) {
      return null;
    }
    int dot = fileName.lastIndexOf('.');
    return dot < 0 ? null : fileName.substring(0, dot);
  }
}
