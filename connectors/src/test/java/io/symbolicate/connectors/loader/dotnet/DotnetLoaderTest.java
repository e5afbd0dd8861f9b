package io.symbolicate.connectors.loader.dotnet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.connectors.loader.LoadPacer;
import io.symbolicate.connectors.loader.TableConverter;
import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.symbols.dotnet.DotnetImage;
import io.symbolicate.symbols.dotnet.DotnetPage;
import io.symbolicate.symbols.dotnet.DotnetTable;
import io.symbolicate.symbols.dotnet.PortablePdb;
import io.symbolicate.symbols.id.DebugFileLayout;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.InMemoryPageSource;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The loader's .NET locator and converter: the keys of a module in each layout (the symstore
 * ones as Symbolicator's candidate lists in its .NET snapshots name them), and what a fetched
 * file becomes: a table, or {@code malformed} with a reason.
 */
class DotnetLoaderTest {
  static final Path WINDOWS =
      SharedFixtures.fixtures("difs").resolve("getsentry-symbolic/testutils/windows");
  static final Path SYMBOLICATOR =
      SharedFixtures.fixtures("difs").resolve("getsentry-symbolicator");

  static final ModuleRef INTEGRATION =
      new ModuleRef(
          "global", TableKind.DOTNET, "integration.pdb/0C1033F78632492E91C6C314B72E1920E60B819D");

  @Test
  void keysInEachLayoutAsSymbolicatorLooksThemUp() throws Exception {
    assertThat(DotnetModuleLocator.keys(INTEGRATION, List.of(DebugFileLayout.NATIVE)))
        .containsExactly(
            "integration.pdb/0C1033F78632492E91C6C314B72E1920E60B819D/integration.pdb");
    // dotnet_integration.snap: the candidate that Symbolicator found, in its symstore layout
    String snap =
        Files.readString(
            SYMBOLICATOR.resolve("snapshots/integration__symbolication__dotnet_integration.snap"));
    String found =
        "/symbols/integration.pdb/0C1033F78632492E91C6C314B72E1920ffffffff/integration.pdb";
    assertThat(snap).contains(found);
    assertThat(DotnetModuleLocator.keys(INTEGRATION, List.of(DebugFileLayout.SYMSTORE)))
        .containsExactly(found.substring("/symbols/".length()));
    // dotnet_windows_pdb.snap: the age becomes ffffffff whatever the module's id says
    ModuleRef crash =
        new ModuleRef("global", TableKind.DOTNET, "crash.pdb/3249D99D0C4049318610F4E4FB0B69360");
    assertThat(
            Files.readString(
                SYMBOLICATOR.resolve(
                    "snapshots/integration__symbolication__dotnet_windows_pdb.snap")))
        .contains(
            "/symbols/"
                + DotnetModuleLocator.keys(crash, List.of(DebugFileLayout.SYMSTORE)).get(0));
    assertThat(DotnetModuleLocator.keys(INTEGRATION, List.of(DebugFileLayout.UNIFIED)))
        .containsExactly("0c/1033f78632492e91c6c314b72e1920e60b819d/debuginfo");
    assertThat(
            DotnetModuleLocator.keys(
                INTEGRATION.inScope("acme"),
                List.of(DebugFileLayout.DEBUGINFOD, DebugFileLayout.SSQP)))
        .containsExactly(
            "scopes/acme/integration.pdb/0c1033f78632492e91c6c314b72e1920ffffffff/integration.pdb");
    assertThatThrownBy(
            () ->
                DotnetModuleLocator.keys(
                    new ModuleRef("global", TableKind.DOTNET, "no-id"),
                    List.of(DebugFileLayout.NATIVE)))
        .isInstanceOf(DebugIdentifiers.InvalidIdentifierException.class);
  }

  private static CompactTable convert(ModuleRef ref, byte[] data) throws Exception {
    TableConverter conv = new DotnetTableConverter();
    var in = new ByteArrayInputStream(data);
    return conv.convert(
        ref, new FetchResult.Found("test", data.length, in), in, 1 << 24, LoadPacer.unpaced());
  }

  /**
   * An assembly that embeds its PDB converts to the table of that PDB (symbolic's
   * test_pe_embedded_ppdb: the embedded PDB's id is the assembly's), every lookup equal.
   */
  @Test
  void anAssemblyEmbeddingItsPdbConvertsAsThatPdb() throws Exception {
    byte[] dll =
        Files.readAllBytes(WINDOWS.resolve("Sentry.Samples.Console.Basic-embedded-ppdb.dll"));
    DotnetImage image = DotnetImage.parse(dll);
    String id =
        DebugIdentifiers.normalizeDebugId(image.portablePdbReference().orElseThrow().debugId());
    ModuleRef ref =
        new ModuleRef("global", TableKind.DOTNET, "Sentry.Samples.Console.Basic.pdb/" + id);
    DotnetTable fromDll = (DotnetTable) convert(ref, dll);
    DotnetTable direct =
        DotnetTable.build(PortablePdb.parse(image.embeddedPortablePdb().orElseThrow()));
    assertThat(fromDll.header()).isEqualTo(direct.header());
    var a = new InMemoryPageSource<>(fromDll.pages(), DotnetPage::decode);
    for (int method = 1; method < 20; method++) {
      for (int il = 0; il < 64; il++) {
        assertThat(DotnetTable.lookup(a, method, il))
            .isEqualTo(DotnetTable.lookup(direct.inMemory(), method, il));
      }
    }
  }

  @Test
  void filesThatAreNotTheModulesPortablePdbAreMalformedWithAReason() throws Exception {
    byte[] portable = Files.readAllBytes(WINDOWS.resolve("portable.pdb"));
    // another PDB's id
    assertThatThrownBy(() -> convert(INTEGRATION, portable))
        .isInstanceOf(TableConverter.MalformedSymbolsException.class)
        .hasMessageContaining("not the module's 0C1033F78632492E91C6C314B72E1920E60B819D");
    // a Windows PDB: Symbolicator's "Only portable PDB files can be used for .NET symbolication"
    assertThatThrownBy(() -> convert(INTEGRATION, Files.readAllBytes(WINDOWS.resolve("crash.pdb"))))
        .isInstanceOf(TableConverter.MalformedSymbolsException.class)
        .hasMessage(DotnetTableConverter.WINDOWS_PDB);
    assertThatThrownBy(
            () -> convert(INTEGRATION, Files.readAllBytes(WINDOWS.resolve("integration.dll"))))
        .isInstanceOf(TableConverter.MalformedSymbolsException.class)
        .hasMessageContaining("without an embedded Portable PDB");
    assertThatThrownBy(() -> convert(INTEGRATION, Arrays.copyOf(portable, 700)))
        .isInstanceOf(TableConverter.MalformedSymbolsException.class);
    assertThatThrownBy(() -> convert(INTEGRATION, "hello".getBytes()))
        .isInstanceOf(TableConverter.MalformedSymbolsException.class)
        .hasMessageContaining("neither a Portable PDB nor a .NET assembly");
  }
}
