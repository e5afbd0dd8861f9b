package io.symbolicate.symbols.dwarf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The hand-written suffix stripper gives what Mozilla's regular expression gives. */
class CompilerSuffixTest {
  private static String regex(String s) {
    return CompilerSuffix.PATTERN.matcher(s).replaceFirst("");
  }

  @Test
  void knownNames() {
    for (String s :
        new String[] {
          "",
          "f",
          "foo.cold",
          "foo.isra.0",
          "foo.constprop.0.isra.0",
          "foo.part.12.cold",
          "foo [clone .cold]",
          "foo(int) [clone .isra.0] [clone .cold]",
          "foo.str",
          "foo.strx",
          "foo.cold.",
          "foo.cold.x",
          ".cold",
          "a.b.cold",
          "foo [clone",
          "foo [clone ]]",
          "foo]",
          "foo.lto_priv.0",
          "foo.llvm.123456789",
          "x.cold\n",
          "_ZN4ceph6buffer7v15_2_04list6appendEPKcj.cold"
        }) {
      assertThat(CompilerSuffix.strip(s)).as(s).isEqualTo(regex(s));
    }
  }

  @Test
  void randomNamesFromSuffixPieces() {
    String[] pieces = {
      "a",
      "f",
      "(int)",
      ".",
      "0",
      "12",
      "cold",
      "constprop",
      "llvm",
      "localalias",
      "lto_priv",
      "isra",
      "part",
      "str",
      " ",
      "[",
      "]",
      "[clone",
      " [clone .cold]",
      ".cold",
      ".isra.0",
      "x",
      "\n"
    };
    Random r = new Random(44);
    for (int i = 0; i < 200_000; i++) {
      StringBuilder sb = new StringBuilder();
      int n = r.nextInt(9);
      for (int k = 0; k < n; k++) {
        sb.append(pieces[r.nextInt(pieces.length)]);
      }
      String s = sb.toString();
      assertThat(CompilerSuffix.strip(s)).as("[%s]", s).isEqualTo(regex(s));
    }
  }
}
