package io.symbolicate.symbols.demangle;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.demangle.MsvcDemangler.Style;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Hostile decorated names: each is refused (null, {@code demangleOrSelf} gives the name back) or
 * demangled within bounds, never an exception, a StackOverflowError or a hang. Refusals that are
 * llvm-undname's too are said so; the others are our bounds (recursion 128, output 1 Mi
 * characters), which llvm-undname does not have.
 */
@Timeout(60)
class MsvcDemanglerHostileTest {
  private static void refused(String name) {
    for (Style s : Style.values()) {
      assertThat(MsvcDemangler.demangle(name, s)).as(s + " " + abbreviate(name)).isNull();
      assertThat(MsvcDemangler.demangleOrSelf(name, s)).isSameAs(name);
    }
  }

  private static String abbreviate(String s) {
    return s.length() > 80 ? s.substring(0, 80) + "...(" + s.length() + ")" : s;
  }

  @Test
  void notDecoratedNamesAreRefused() {
    // llvm-undname refuses these too
    for (String s : new String[] {"", "?", "??", "???", "f", "_f", "@f@8", "_Z1fv", "?f", "?f@"}) {
      refused(s);
    }
    assertThat(MsvcDemangler.demangle(null)).isNull();
  }

  @Test
  void truncatedNamesAreRefused() {
    String name = "??$?0V?$A@H@@@?$B@H@@QAE@V?$A@H@@@Z";
    assertThat(MsvcDemangler.demangle(name)).isNotNull();
    // every proper prefix is refused, as llvm-undname refuses them (the golden's edge rows
    // check some of them against it)
    for (int i = 0; i < name.length() - 1; i++) {
      refused(name.substring(0, i));
    }
  }

  @Test
  void deepNestingIsRefusedWithoutStackOverflow() {
    // 100,000 pointer levels, nested templates, nested local scopes, nested function types
    refused("?f@@YAX" + "PA".repeat(100_000) + "H@Z");
    refused("?x@@3" + "V?$A@".repeat(20_000) + "H" + "@@".repeat(20_000) + "A");
    refused("?x@" + "?1??f@".repeat(20_000) + "@YAXXZ@4HA");
    refused("?f@@YAX" + "P6AX".repeat(20_000) + "XZ" + "@Z".repeat(20_000));
    refused("??$f@" + "$1??$f@".repeat(20_000) + "@YAXXZ");
  }

  @Test
  void moderateNestingStillDemangles() {
    assertThat(MsvcDemangler.demangle("?f@@YAX" + "PA".repeat(40) + "H@Z"))
        .isEqualTo("void __cdecl f(int " + "*".repeat(40) + ")");
  }

  @Test
  void backReferencesOutOfRangeAreRefused() {
    // llvm-undname refuses these too: names 0-9 and parameter types 0-9 must have been seen
    refused("?f@1@YAXXZ");
    refused("?f@@YAX0@Z");
    refused("?f@@YAXH9@Z");
    refused("?f@@YAXV9@@Z");
    refused("??$f@V?$A@H@@0@@YAXXZ");
  }

  @Test
  void hugeNumbersAreBounded() {
    // a 2^64 array rank: refused before any allocation
    refused("?x@@3PAYPPPPPPPPPPPPPPPP@HA");
    refused("?x@@3PAYPPPPPPPP@HA");
    // numbers wrap at 64 bits as in llvm-undname; a dimension prints as its value
    assertThat(MsvcDemangler.demangle("?x@@3PAY0PPPPPPPPPPPPPPPP@HA"))
        .isEqualTo("int (*x)[18446744073709551615]");
    // a thunk offset past INT64_MAX is refused (llvm-undname refuses it too)
    refused("?f@A@@WPPPPPPPPPPPPPPPP@AEXXZ");
    // string literals: a claimed length far past the bytes given prints as truncated
    assertThat(MsvcDemangler.demangle("??_C@_0PPPPPPPP@ABCD@abc@")).isEqualTo("\"abc\"...");
    refused("??_C@_0CA@ABCD@" + "a".repeat(200) + "@");
  }

  /** A template of ten back references to the previous level: 10^levels names. */
  private static String bomb(int levels) {
    String t = "?$A@VB@@" + "V1@".repeat(9) + "@";
    for (int i = 1; i < levels; i++) {
      t = "?$A@V" + t + "@" + "V1@".repeat(9) + "@";
    }
    return "?x@@3V" + t + "@A";
  }

  /**
   * Back references multiply a name tenfold a level; the output bound refuses what would grow
   * past 1 Mi characters (llvm-undname prints it: 7 levels are ~100 MB).
   */
  @Test
  void backReferenceBombsAreRefused() {
    String three = MsvcDemangler.demangle(bomb(3));
    assertThat(three)
        .startsWith("class A<class A<class A<class B, class B,")
        .hasSizeGreaterThan(1000);
    refused(bomb(7));
    refused(bomb(12));
  }

  @Test
  void randomNamesNeverThrow() {
    Random r = new Random(45);
    String alphabet = "?@$0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_";
    for (int i = 0; i < 20_000; i++) {
      StringBuilder s = new StringBuilder("?");
      int n = 1 + r.nextInt(60);
      for (int k = 0; k < n; k++) {
        s.append(alphabet.charAt(r.nextInt(alphabet.length())));
      }
      for (Style st : Style.values()) {
        String d = MsvcDemangler.demangle(s.toString(), st);
        assertThat(d == null || d.length() <= MsvcDemangler.MAX_OUTPUT).isTrue();
      }
    }
  }
}
