package io.symbolicate.symbols.demangle;

import static io.symbolicate.symbols.testing.Fuzzing.check;
import static io.symbolicate.symbols.testing.Fuzzing.expect;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.symbolicate.symbols.demangle.Demangler.Style;
import io.symbolicate.symbols.testing.Fuzzing;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz targets of the demangler (docs/fuzzing.md). In every build they replay their corpora
 * under {@code src/test/resources/.../DemangleFuzzTestsInputs/<target>/}; {@code scripts/fuzz.sh
 * demangle-itanium} and {@code demangle-rust} run them coverage-guided. No exception is
 * documented: every input gets a name or null.
 */
class DemangleFuzzTests {
  /** Bytes as an Itanium C++ name ({@code _Z} put in front unless there). */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void itanium(byte[] data) throws Exception {
    String name = text(data);
    expect(data, () -> styles(name.startsWith("_Z") ? name : "_Z" + name));
  }

  /** Bytes as a Rust name: v0 ({@code _R} put in front) unless they start as a legacy one. */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void rust(byte[] data) throws Exception {
    String name = text(data);
    expect(
        data, () -> styles(name.startsWith("_ZN") || name.startsWith("_R") ? name : "_R" + name));
  }

  private static String text(byte[] data) {
    return new String(data, StandardCharsets.ISO_8859_1);
  }

  /**
   * All four styles. The verbose and short forms read the same grammar, so they succeed or fail
   * together; a name-only form reads less, so it exists whenever the full one does.
   */
  private static void styles(String name) {
    String full = Demangler.demangle(name, Style.SHORT);
    String verbose = Demangler.demangle(name, Style.VERBOSE);
    String nameOnly = Demangler.demangle(name, Style.NAME_ONLY);
    String verboseNameOnly = Demangler.demangle(name, Style.VERBOSE_NAME_ONLY);
    check((full == null) == (verbose == null), "short and verbose disagree on success");
    check(full == null || nameOnly != null, "full form without a name-only form");
    check((nameOnly == null) == (verboseNameOnly == null), "name-only forms disagree on success");
    // the short form may be empty (an empty v0 crate name: c++filt -i prints an empty line);
    // the verbose one carries the crate's disambiguator, so it is not
    check(verbose == null || !verbose.isEmpty(), "empty verbose demangling");
  }
}
