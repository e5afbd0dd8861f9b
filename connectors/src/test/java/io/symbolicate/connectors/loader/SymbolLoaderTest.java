package io.symbolicate.connectors.loader;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import org.junit.jupiter.api.Test;

class SymbolLoaderTest {

  /** An upload announced by hand with another spelling of the ids reaches the module the stream looks up. */
  @Test
  void uploadsAreKeyedAsTheStreamNamesModules() {
    ModuleRef lower =
        new ModuleRef("acme", TableKind.NATIVE, "app.pdb/0123456789abcdef0123456789abcdef1");
    assertThat(SymbolLoader.canonical(lower).key())
        .isEqualTo("app.pdb/0123456789ABCDEF0123456789ABCDEF1");
    assertThat(SymbolLoader.canonical(lower).scope()).isEqualTo("acme");
    ModuleRef guid =
        new ModuleRef("global", TableKind.NATIVE, "app.pdb/01234567-89ab-cdef-0123-456789abcdef1");
    assertThat(SymbolLoader.canonical(guid).key())
        .isEqualTo("app.pdb/0123456789ABCDEF0123456789ABCDEF1");
    assertThat(
            SymbolLoader.canonical(
                    new ModuleRef("global", TableKind.JVM, "1D1B7C5E1E6C4C798B5E4D8B0D8A3F11"))
                .key())
        .isEqualTo("1d1b7c5e-1e6c-4c79-8b5e-4d8b0d8a3f11");
    assertThat(
            SymbolLoader.canonical(
                    new ModuleRef("global", TableKind.JS, "C0FFEE00-0000-4000-8000-000000000001"))
                .key())
        .isEqualTo("c0ffee00-0000-4000-8000-000000000001");
    // a module named by build id: lower case without dashes, as the stream writes it
    assertThat(
            SymbolLoader.canonical(
                    new ModuleRef("global", TableKind.NATIVE, "buildid/B060AD20-C6B4/libfoo.so"))
                .key())
        .isEqualTo("buildid/b060ad20c6b4/libfoo.so");
    // what does not normalise stays as given, for the validation to refuse
    ModuleRef bad = new ModuleRef("global", TableKind.NATIVE, "../x/0123");
    assertThat(SymbolLoader.canonical(bad)).isSameAs(bad);
    ModuleRef release = new ModuleRef("global", TableKind.JS, "release/app%401.0/_/~%2Fa.js");
    assertThat(SymbolLoader.canonical(release)).isSameAs(release);
  }
}
