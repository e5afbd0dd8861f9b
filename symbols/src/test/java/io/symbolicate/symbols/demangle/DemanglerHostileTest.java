package io.symbolicate.symbols.demangle;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.demangle.Demangler.Style;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Hostile names: each is refused (null) or demangled within bounds, never an exception, a
 * StackOverflowError or a hang. The expected refusals are c++filt's too (it leaves these names
 * as they are), except where a bound of ours is the reason, said at the case. The name-only
 * styles read no parameters (as {@code c++filt -p}), so a bad parameter list leaves them the name.
 */
@Timeout(60)
class DemanglerHostileTest {
  private static void refusedInEveryStyle(String name) {
    for (Style s : Style.values()) {
      assertThat(Demangler.demangle(name, s)).as(s + " " + abbreviate(name)).isNull();
    }
  }

  /** The name-only styles stop after the name, so a bad parameter list does not refuse them. */
  private static void refusedWithParameters(String name) {
    for (Style s : new Style[] {Style.SHORT, Style.VERBOSE}) {
      assertThat(Demangler.demangle(name, s)).as(s + " " + abbreviate(name)).isNull();
    }
  }

  private static String abbreviate(String s) {
    return s.length() > 80 ? s.substring(0, 80) + "...(" + s.length() + ")" : s;
  }

  @Test
  void notMangledNamesAreRefused() {
    for (String s : new String[] {"", "_", "_Z", "main", "_init", "_Zz", "_R0", "__Z1fv", "Z1fv"}) {
      refusedInEveryStyle(s);
    }
    assertThat(Demangler.demangle(null)).isNull();
    assertThat(Demangler.demangleOrSelf("main")).isEqualTo("main");
    assertThat(Demangler.demangleOrSelf("_Z1fv")).isEqualTo("f()");
  }

  @Test
  void deepNestingIsRefusedWithoutStackOverflow() {
    // 100,000 pointer levels: past the recursion bound (c++filt's own limit is 2048 levels)
    refusedInEveryStyle("_Z1fP" + "P".repeat(100_000) + "i");
    refusedInEveryStyle("_Z1f" + "N1aI".repeat(20_000) + "i");
    refusedInEveryStyle("_Z1fI" + "X".repeat(50_000) + "LI1E");
    refusedInEveryStyle("_Z" + "Z".repeat(50_000) + "1fvE1x");
    refusedInEveryStyle("_RNv" + "Nv".repeat(50_000) + "C1a1b");
    refusedInEveryStyle("_RINvC1a1bR" + "R".repeat(50_000) + "uE");
  }

  @Test
  void moderateNestingStillDemangles() {
    assertThat(Demangler.demangle("_Z1fP" + "P".repeat(40) + "i"))
        .isEqualTo("f(int" + "*".repeat(41) + ")");
  }

  @Test
  void hugeCountsAndLengthsAreRefused() {
    refusedInEveryStyle("_Z99999999999999999999f");
    refusedInEveryStyle("_Z2147483647f");
    refusedInEveryStyle("_Z50abc");
    // an array bound is printed as its digits, as c++filt does
    assertThat(Demangler.demangle("_Z1fPA99999999999999999999_i"))
        .isEqualTo("f(int (*) [99999999999999999999])");
    refusedWithParameters("_ZN1aE" + "1".repeat(30));
    refusedInEveryStyle("_RNvCs" + "z".repeat(40) + "_1a1b" + "u" + "9".repeat(20) + "_x");
    refusedInEveryStyle("_ZN3foo" + "9999999999" + "h0123456789abcdefE");
  }

  @Test
  void substitutionsAndTemplateParametersOutOfRangeAreRefused() {
    refusedWithParameters("_Z1fS_");
    refusedWithParameters("_Z1fiS0_");
    refusedWithParameters("_Z1fSZZZZZZZZZZZZZZZZZ_");
    refusedWithParameters("_Z1fIiEvT0_");
    refusedWithParameters("_Z1fT_");
    refusedWithParameters("_Z1fIiEvT999999999999_");
    refusedInEveryStyle("_ZN1aIiE1bIT0_EE");
    // Rust back references must point backwards
    refusedInEveryStyle("_RNvB_1a");
    refusedInEveryStyle("_RNvB9_1a");
    refusedInEveryStyle("_RNvCs_1aB0_");
  }

  @Test
  void exponentialSubstitutionsAreCutByTheOutputBound() {
    // std::pair<S, S> of the previous level, 40 times: 2^40 names if printed in full
    StringBuilder b = new StringBuilder("_Z1f1x");
    int last = 0; // S_ is x
    for (int level = 0; level < 40; level++) {
      String ref = last == 0 ? "S_" : "S" + Integer.toString(last - 1, 36).toUpperCase() + "_";
      b.append("St4pairI").append(ref).append(ref).append('E');
      last += 2; // std::pair and std::pair<..> are new substitutions
    }
    long start = System.nanoTime();
    refusedWithParameters(b.toString()); // ours: over the output bound
    assertThat(Demangler.demangleNameOnly(b.toString())).isEqualTo("f");
    assertThat(System.nanoTime() - start).isLessThan(5_000_000_000L);
  }

  @Test
  void nestedPackExpansionsAreBounded() {
    String name = "_Z1fIJiiiiEEvDp" + "Dp".repeat(60) + "T_";
    long start = System.nanoTime();
    for (Style s : Style.values()) {
      Demangler.demangle(name, s); // whatever it answers, it answers quickly
    }
    assertThat(System.nanoTime() - start).isLessThan(5_000_000_000L);
  }

  @Test
  void nestedUnresolvedNamesDoNotBacktrackExponentially() {
    // each sr is read in the new syntax, then again in the old one: 2^n without the step bound
    // (found by DemangleFuzzTests#itanium: 115 MB of heap for a 285-byte name)
    String name = "_Z1fIX" + "srmm".repeat(60) + "1aEEvv";
    long start = System.nanoTime();
    for (Style s : Style.values()) {
      assertThat(Demangler.demangle(name, s)).isNull();
    }
    assertThat(System.nanoTime() - start).isLessThan(5_000_000_000L);
  }

  @Test
  void randomNamesNeverThrow() {
    Random r = new Random(44);
    String alphabet = "_ZRNESsatKVPROCGFAMTDpIJXLefdil0123456789vcbhBUlnrmjyxozgwqub.$";
    for (int i = 0; i < 20_000; i++) {
      StringBuilder b = new StringBuilder(i % 2 == 0 ? "_Z" : "_R");
      int n = 1 + r.nextInt(60);
      for (int k = 0; k < n; k++) {
        b.append(alphabet.charAt(r.nextInt(alphabet.length())));
      }
      for (Style s : Style.values()) {
        String d = Demangler.demangle(b.toString(), s);
        assertThat(d == null || !d.isEmpty()).isTrue();
      }
    }
  }
}
