package io.symbolicate.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Entry point of the JVMs that {@link ChildJvm} starts: runs the {@code main} of the class named
 * by its first argument with the rest, and halts as soon as its stdin reaches end-of-file, which
 * happens when the parent JVM dies in any way (even SIGKILL), so a crashed test or benchmark
 * never leaves an instance behind.
 */
public final class ChildJvmMain {
  private ChildJvmMain() {}

  public static void main(String[] args) throws Throwable {
    if (args.length == 0) {
      throw new IllegalArgumentException("usage: ChildJvmMain <main class> [args...]");
    }
    Thread watchdog =
        new Thread(
            () -> {
              try (InputStream in = System.in) {
                byte[] buf = new byte[64];
                while (in.read(buf) >= 0) {
                  // the parent never writes; reading only waits for end-of-file
                }
              } catch (IOException ignored) {
                // a broken pipe means the same as end-of-file
              }
              Runtime.getRuntime().halt(86);
            },
            "parent-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
    Method main = Class.forName(args[0]).getMethod("main", String[].class);
    try {
      main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
