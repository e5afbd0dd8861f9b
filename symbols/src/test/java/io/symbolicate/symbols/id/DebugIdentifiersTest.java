package io.symbolicate.symbols.id;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class DebugIdentifiersTest {

  @Test
  void normalisesDebugIdsAndBuildsMozillaKeys() {
    var id = DebugIdentifiers.nativeModule("xul.pdb", "44e4ec8c-2f41-492b-9369-d6b9a059577c2");
    assertThat(id.debugId()).isEqualTo("44E4EC8C2F41492B9369D6B9A059577C2");
    assertThat(SymbolLayout.breakpad(id))
        .containsExactly("xul.pdb/44E4EC8C2F41492B9369D6B9A059577C2/xul.sym");
    var elf = DebugIdentifiers.nativeModule("libxul.so", "A1B2C3D4E5F60718293A4B5C6D7E8F900");
    assertThat(SymbolLayout.breakpad(elf))
        .containsExactly("libxul.so/A1B2C3D4E5F60718293A4B5C6D7E8F900/libxul.so.sym");
    assertThat(SymbolLayout.scopePrefix("global")).isEmpty();
    assertThat(SymbolLayout.scopePrefix("tenant-a")).isEqualTo("scopes/tenant-a/");
  }

  @Test
  void refusesPathTricksAndNonHexIds() {
    for (String bad :
        new String[] {
          "../../etc/passwd",
          "..",
          ".",
          "a/b.pdb",
          "a\\b.pdb",
          "x\u0000.pdb",
          "line\nbreak.pdb",
          "q?.pdb",
          "%2e%2e",
          "a|b.pdb",
          "",
          "x".repeat(256)
        }) {
      assertThatThrownBy(() -> DebugIdentifiers.nativeModule(bad, "ABCDEF"))
          .as(bad)
          .isInstanceOf(DebugIdentifiers.InvalidIdentifierException.class);
    }
    for (String bad : new String[] {"", "XYZ", "../AB", "AB/CD", "A".repeat(81), "12 34"}) {
      assertThatThrownBy(() -> DebugIdentifiers.nativeModule("ok.pdb", bad))
          .as(bad)
          .isInstanceOf(DebugIdentifiers.InvalidIdentifierException.class);
    }
    assertThatThrownBy(() -> SymbolLayout.scopePrefix("../x"))
        .hasMessageContaining("scope must match");
    // names with spaces and non-ASCII letters are real (Windows, macOS) and allowed
    assertThat(DebugIdentifiers.nativeModule("My App.pdb", "AB").debugFile())
        .isEqualTo("My App.pdb");
    assertThat(DebugIdentifiers.nativeModule("Прил.pdb", "AB").debugFile()).isEqualTo("Прил.pdb");
  }

  @Test
  void handWrittenMatchersAgreeWithTheDocumentedPatterns() {
    Random rnd = new Random(7);
    String alphabet = "09afAFgzGZ._-/ \u00e9\u0000";
    for (int i = 0; i < 50_000; i++) {
      StringBuilder b = new StringBuilder();
      int len = rnd.nextInt(20) == 0 ? 75 + rnd.nextInt(60) : rnd.nextInt(12);
      for (int k = 0; k < len; k++) {
        b.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
      }
      String s = b.toString();
      assertThat(DebugIdentifiers.isHex(s))
          .as("hex %s", s)
          .isEqualTo(DebugIdentifiers.HEX_ID.matcher(s).matches());
      assertThat(DebugIdentifiers.isScope(s))
          .as("scope %s", s)
          .isEqualTo(DebugIdentifiers.SCOPE.matcher(s).matches());
    }
    assertThat(DebugIdentifiers.isScope("a".repeat(128))).isTrue();
    assertThat(DebugIdentifiers.isScope("a".repeat(129))).isFalse();
    assertThat(DebugIdentifiers.isHex("F".repeat(80))).isTrue();
    assertThat(DebugIdentifiers.isHex("F".repeat(81))).isFalse();
  }
}
