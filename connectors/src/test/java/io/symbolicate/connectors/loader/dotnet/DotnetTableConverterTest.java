package io.symbolicate.connectors.loader.dotnet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.connectors.loader.TableConverter.MalformedSymbolsException;
import io.symbolicate.symbols.dotnet.DotnetPage;
import io.symbolicate.symbols.dotnet.DotnetTable;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.InMemoryPageSource;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The loader's .NET converter and locator on symbolic's fixtures: a Portable PDB and an assembly
 * that embeds one convert (method 7, IL offset 10 is Program.cs line 81, symbolic's assertion); a
 * Windows PDB is Symbolicator's {@code unsupported}; other files, and a PDB that is not the
 * module's, are malformed with a reason.
 */
class DotnetTableConverterTest {
  static final Path WINDOWS =
      SharedFixtures.fixtures("difs").resolve("getsentry-symbolic/testutils/windows");
  static final ModuleRef PORTABLE =
      new ModuleRef(
          "global", TableKind.DOTNET, "portable.pdb/1D6929B4468B4DB893899A12BD257E1BAB8CF31E");

  @Test
  void aPortablePdbConverts() throws Exception {
    CompactTable t =
        DotnetTableConverter.build(Files.readAllBytes(WINDOWS.resolve("portable.pdb")), PORTABLE);
    assertThat(t.kind()).isEqualTo(TableKind.DOTNET);
    var pages = new InMemoryPageSource<>(t.pages(), DotnetPage::decode);
    DotnetPage.Line line = DotnetTable.lookup(pages, 7, 10).orElseThrow();
    assertThat(line.file()).endsWith("Program.cs");
    assertThat(line.line()).isEqualTo(81);
  }

  @Test
  void anAssemblyWithAnEmbeddedPdbConverts() throws Exception {
    CompactTable t =
        DotnetTableConverter.build(
            Files.readAllBytes(WINDOWS.resolve("Sentry.Samples.Console.Basic-embedded-ppdb.dll")),
            null);
    assertThat(t.pages()).isNotEmpty();
  }

  @Test
  void aWindowsPdbIsUnsupported() {
    assertThatThrownBy(
            () ->
                DotnetTableConverter.build(Files.readAllBytes(WINDOWS.resolve("crash.pdb")), null))
        .isInstanceOf(MalformedSymbolsException.class)
        .hasMessage(DotnetTableConverter.UNSUPPORTED);
  }

  @Test
  void otherFilesAreMalformedWithAReason() throws Exception {
    assertThatThrownBy(() -> DotnetTableConverter.build("not a pdb".getBytes(), null))
        .isInstanceOf(MalformedSymbolsException.class)
        .hasMessageContaining("not a Portable PDB");
    assertThatThrownBy(
            () ->
                DotnetTableConverter.build(Files.readAllBytes(WINDOWS.resolve("crash.exe")), null))
        .isInstanceOf(MalformedSymbolsException.class)
        .hasMessageContaining("without an embedded Portable PDB");
    byte[] pdb = Files.readAllBytes(WINDOWS.resolve("portable.pdb"));
    assertThatThrownBy(() -> DotnetTableConverter.build(Arrays.copyOf(pdb, pdb.length / 2), null))
        .isInstanceOf(MalformedSymbolsException.class);
    ModuleRef other =
        new ModuleRef(
            "global", TableKind.DOTNET, "portable.pdb/0C1033F78632492E91C6C314B72E1920E60B819D");
    assertThatThrownBy(() -> DotnetTableConverter.build(pdb, other))
        .isInstanceOf(MalformedSymbolsException.class)
        .hasMessageContaining("is not the module's");
  }

  @Test
  void portablePdbsAreLookedForUnderTheGuidAndFfffffff() {
    assertThat(new DotnetModuleLocator().keys(PORTABLE))
        .containsExactly(
            "portable.pdb/1D6929B4468B4DB893899A12BD257E1Bffffffff/portable.pdb",
            "portable.pdb/1D6929B4468B4DB893899A12BD257E1BFFFFFFFF/portable.pdb",
            "portable.pdb/1d6929b4468b4db893899a12bd257e1bffffffff/portable.pdb",
            "portable.pdb/1D6929B4468B4DB893899A12BD257E1BAB8CF31E/portable.pdb");
    assertThat(new DotnetModuleLocator().keys(PORTABLE.inScope("acme")).get(0))
        .isEqualTo(
            "scopes/acme/portable.pdb/1D6929B4468B4DB893899A12BD257E1Bffffffff/portable.pdb");
  }
}
