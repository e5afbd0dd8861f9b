package io.symbolicate.symbols.dwarf;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The test demangler until {@code symbols.demangle} lands: binutils' {@code c++filt} (the tool the
 * issue checks our demangler against), one process per distinct name.
 */
final class CxxFilt implements Function<String, String> {
  private final Map<String, String> cache = new HashMap<>();

  @Override
  public String apply(String mangled) {
    if (!mangled.startsWith("_Z")) {
      return null;
    }
    return cache.computeIfAbsent(mangled, CxxFilt::run);
  }

  private static String run(String mangled) {
    try {
      Process p = new ProcessBuilder("c++filt", mangled).redirectErrorStream(true).start();
      try (BufferedReader r =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String out = r.readLine();
        p.waitFor();
        return out == null || out.equals(mangled) ? null : out;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
