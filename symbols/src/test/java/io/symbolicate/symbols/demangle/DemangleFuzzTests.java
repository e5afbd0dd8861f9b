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
 * demangle-itanium}, {@code demangle-rust} and {@code demangle-msvc} run them coverage-guided. No
 * exception is documented: every input gets a name or null.
 */
class DemangleFuzzTests {
  static {
    // load (and under Jazzer instrument) the demanglers before the first timed input: on a
    // loaded machine that took past the 10 s input timeout
    Demangler.demangle("_ZN1AIiE1fEv");
    MsvcDemangler.demangle("??$f@$1?x@@3HA@@YAXV?$A@H@@0@Z", MsvcDemangler.Style.BREAKPAD);
  }

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

  /** Bytes as a Microsoft C++ name ({@code ?} put in front unless it starts {@code ?} or .). */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void msvc(byte[] data) throws Exception {
    String name = text(data);
    expect(
        data, () -> msvcStyles(name.startsWith("?") || name.startsWith(".") ? name : "?" + name));
  }

  /**
   * Both styles read the same grammar; the Breakpad style refuses a few names more (DIA's
   * undecorator leaves cv-qualified function pointers alone), never fewer.
   */
  private static void msvcStyles(String name) {
    // unchecked: an exception of ours is a finding, not a refusal
    String full = MsvcDemangler.demangleUnchecked(name, MsvcDemangler.Style.FULL);
    String breakpad = MsvcDemangler.demangleUnchecked(name, MsvcDemangler.Style.BREAKPAD);
    check(breakpad == null || full != null, "Breakpad form without a full form");
    check(full == null || !full.isEmpty(), "empty demangling");
    check(full == null || full.length() <= MsvcDemangler.MAX_OUTPUT, "output past its bound");
    check(
        MsvcDemangler.demangleOrSelf(name, MsvcDemangler.Style.FULL)
            .equals(full == null ? name : full),
        "demangleOrSelf disagrees");
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
