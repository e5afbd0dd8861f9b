package io.symbolicate.connectors.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.id.SymbolLayout;
import io.symbolicate.symbols.js.JsReleaseModule;
import io.symbolicate.symbols.js.JsSymbolKeys;
import io.symbolicate.symbols.jvm.MappingLocator;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SymbolObjectKeysTest {

  @Test
  void nativeFilesInEveryScopeRoundTripThroughTheLoadersLayout() {
    for (String scope : new String[] {"global", "acme", "t-1.x"}) {
      for (String[] f :
          new String[][] {
            {"xul.pdb", "44e4ec8c2f41492b9369d6b9a059577c2"},
            {"libfoo.so", "ABCDEF0123"},
            {"scopes", "0A"}
          }) {
        DebugIdentifiers.Native id = DebugIdentifiers.nativeModule(f[0], f[1]);
        String key = SymbolLayout.scopePrefix(scope) + SymbolLayout.breakpad(id).get(0);
        assertThat(SymbolObjectKeys.moduleOf(key))
            .as(key)
            .isEqualTo(new ModuleRef(scope, TableKind.NATIVE, id.key()));
      }
    }
  }

  @Test
  void debugFilesInTheNativeLayoutAreTheirModules() {
    assertThat(SymbolObjectKeys.moduleOf("xul.pdb/44E4EC8C2F41492B9369D6B9A059577C2/xul.pdb"))
        .isEqualTo(
            new ModuleRef("global", TableKind.NATIVE, "xul.pdb/44E4EC8C2F41492B9369D6B9A059577C2"));
    String elf = "scopes/acme/libfoo.so.debug/ABCDEF0123456789ABCDEF01234567890/libfoo.so.debug";
    ModuleRef m = SymbolObjectKeys.moduleOf(elf);
    assertThat(m)
        .isEqualTo(
            new ModuleRef(
                "acme", TableKind.NATIVE, "libfoo.so.debug/ABCDEF0123456789ABCDEF01234567890"));
    assertThat(SymbolObjectKeys.isPdb(elf, m)).isFalse();
    assertThat(
            SymbolObjectKeys.isPdb(
                "xul.pdb/44E4EC8C2F41492B9369D6B9A059577C2/xul.pdb",
                SymbolObjectKeys.moduleOf("xul.pdb/44E4EC8C2F41492B9369D6B9A059577C2/xul.pdb")))
        .isTrue();
    assertThat(
            SymbolObjectKeys.isPdb(
                "xul.pdb/44E4EC8C2F41492B9369D6B9A059577C2/xul.sym",
                SymbolObjectKeys.moduleOf("xul.pdb/44E4EC8C2F41492B9369D6B9A059577C2/xul.sym")))
        .as("its Breakpad file")
        .isFalse();
  }

  @Test
  void jvmMappingsByUuidRoundTrip() {
    String uuid = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0";
    assertThat(SymbolObjectKeys.moduleOf(MappingLocator.byUuid(uuid)))
        .isEqualTo(new ModuleRef("global", TableKind.JVM, uuid));
    assertThat(SymbolObjectKeys.moduleOf("scopes/acme/" + MappingLocator.byUuid(uuid)))
        .isEqualTo(new ModuleRef("acme", TableKind.JVM, uuid));
  }

  @Test
  void jsDebugIdMapsAndMinifiedFilesNameTheirModule() {
    String id = "9b2f5e0c-1d3a-4c5b-8e7f-0a1b2c3d4e5f";
    ModuleRef m = new ModuleRef("global", TableKind.JS, id);
    assertThat(SymbolObjectKeys.moduleOf(JsSymbolKeys.sourcemapByDebugId(id))).isEqualTo(m);
    assertThat(SymbolObjectKeys.moduleOf(JsSymbolKeys.minifiedByDebugId(id))).isEqualTo(m);
  }

  @Test
  void jsReleaseArtifactsNameTheModuleOfTheirUrl() {
    JsReleaseModule app =
        new JsReleaseModule("web@1.2.3", null, "https://example.com/static/app.js");
    String file = JsSymbolKeys.releaseFile("web@1.2.3", null, "https://example.com/static/app.js");
    String map =
        JsSymbolKeys.releaseFile("web@1.2.3", null, "https://example.com/static/app.js.map");
    assertThat(SymbolObjectKeys.moduleOf(file))
        .isEqualTo(new ModuleRef("global", TableKind.JS, app.key()));
    assertThat(SymbolObjectKeys.moduleOf(map))
        .isEqualTo(new ModuleRef("global", TableKind.JS, app.key()));
  }

  /** Keys the loader would never fetch: another spelling of ids, other layouts, hostile names. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "/",
        "README.md",
        "xul.pdb/",
        "xul.pdb/44E4EC8C2F41492B9369D6B9A059577C2/",
        "xul.pdb/44E4EC8C2F41492B9369D6B9A059577C2/other.pdb", // a debug file of another name
        "xul.pdb/44e4ec8c2f41492b9369d6b9a059577c2/xul.pdb", // lower case
        "libfoo.so/ABCDEF0123456789ABCDEF0123456789ABCDEF01/libfoo.so", // an executable's build id
        "xul.pdb/44e4ec8c2f41492b9369d6b9a059577c2/xul.sym", // lower-case id: the loader asks upper
        // case
        "xul.pdb/44E4EC8C2F41492B9369D6B9A059577C2/other.sym",
        "xul.pdb/NOTHEX/xul.sym",
        "../44E4/...sym",
        "a/b/c/d.sym",
        "x|y/0A/x|y.sym",
        "x%2F/0A/x%2F.sym",
        "jvm/proguard/0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0/mapping.txt", // upper case
        "jvm/proguard/not-a-uuid/mapping.txt",
        "jvm/release/app/1.0/mapping.txt",
        "jvm/proguard/x",
        "js/debug-id/9B2F5E0C-1D3A-4C5B-8E7F-0A1B2C3D4E5F/sourcemap",
        "js/debug-id/x/sourcemap",
        "js/debug-id/9b2f5e0c-1d3a-4c5b-8e7f-0a1b2c3d4e5f/other",
        "js/release/r",
        "js/release/r/_/%2E%2E",
        "scopes/",
        "scopes/acme/",
        "scopes/bad scope/xul.pdb/0A/xul.sym",
        "scopes/acme/README.md"
      })
  void objectsOfNoKnownLayoutAreNotModules(String key) {
    assertThat(SymbolObjectKeys.moduleOf(key)).as(key).isNull();
  }

  @Test
  void hostileLongKeysAreRefusedWithoutError() {
    String longName = "a".repeat(1000);
    assertThat(SymbolObjectKeys.moduleOf(longName + "/0A/" + longName + ".sym")).isNull();
    assertThat(SymbolObjectKeys.moduleOf("xul.pdb/" + "A".repeat(81) + "/xul.sym")).isNull();
    assertThat(SymbolObjectKeys.moduleOf("x\u0000.so/0A/x\u0000.so.sym")).isNull();
  }
}
