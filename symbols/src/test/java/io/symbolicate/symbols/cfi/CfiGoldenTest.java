package io.symbolicate.symbols.cfi;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.objects.ElfFile;
import io.symbolicate.symbols.objects.ElfIdentity;
import io.symbolicate.symbols.objects.MachOFile;
import io.symbolicate.symbols.objects.MachOIdentity;
import io.symbolicate.symbols.objects.MachOSymbols;
import io.symbolicate.symbols.objects.ObjectIdentity;
import io.symbolicate.symbols.objects.ObjectSymbol;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The unwind readers against the peers' goldens, line for line: Mozilla dump_syms' {@code .sym}
 * files (whose STACK CFI symbolic's AsciiCfiWriter writes) and symbolic's own CFI snapshots of
 * an x86-64 ELF executable, an arm64 ELF and a macOS executable with compact unwind info.
 */
class CfiGoldenTest {
  static Path difs() {
    return SharedFixtures.sharedDir().resolve("fixtures/difs");
  }

  /** The STACK CFI lines of a golden, in its order. */
  static String golden(String path) throws Exception {
    return Files.readAllLines(difs().resolve(path)).stream()
        .filter(l -> l.startsWith("STACK CFI"))
        .map(l -> l + "\n")
        .collect(Collectors.joining());
  }

  @ParameterizedTest
  @CsvSource({
    "mozilla-dump_syms/linux/basic.full, mozilla-dump_syms/linux/basic.full.sym",
    "mozilla-dump_syms/linux/basic.stripped, mozilla-dump_syms/linux/basic.dbg.sym",
    "mozilla-dump_syms/linux/basic.minidebuginfo, mozilla-dump_syms/linux/basic.minidebuginfo.sym",
    "getsentry-symbolic/testutils/linux/crash,"
        + " getsentry-symbolic/snapshots/symbolic-cfi/tests/snapshots/test_cfi__cfi_elf.snap",
    "getsentry-symbolic/testutils/linux/arm64/cfi_test,"
        + " getsentry-symbolic/snapshots/symbolic-cfi/tests/snapshots/test_cfi__cfi_elf_arm64.snap"
  })
  void elfMatchesTheGolden(String file, String golden) throws Exception {
    ElfFile elf = ElfFile.open(difs().resolve(file));
    ObjectIdentity id = ElfIdentity.of(elf);
    CfiRecords out = new CfiRecords();
    DwarfCfiReader.Summary s =
        DwarfCfiReader.read(elf, CfiArch.fromBreakpad(id.arch()), id.loadAddress(), out);
    assertThat(s.skipped()).isZero();
    assertThat(out.text()).isEqualTo(golden(golden));
  }

  @ParameterizedTest
  @CsvSource({
    "getsentry-symbolic/testutils/macos/crash,"
        + " getsentry-symbolic/snapshots/symbolic-cfi/tests/snapshots/test_cfi__cfi_macho.snap"
  })
  void machOMatchesTheGolden(String file, String golden) throws Exception {
    MachOFile macho = MachOFile.open(difs().resolve(file), null);
    ObjectIdentity id = MachOIdentity.of(macho);
    Map<Long, String> names = new HashMap<>();
    List<ObjectSymbol> symbols = MachOSymbols.functions(macho);
    for (ObjectSymbol sym : symbols) {
      String n = sym.name().startsWith("_") ? sym.name().substring(1) : sym.name();
      names.putIfAbsent(sym.address() - id.loadAddress(), n);
    }
    CfiRecords out = new CfiRecords();
    DwarfCfiReader.Summary s =
        CompactUnwindReader.readMachO(
            macho, CfiArch.fromBreakpad(id.arch()), id.loadAddress(), names::get, out);
    assertThat(s.skipped()).isZero();
    assertThat(out.text()).isEqualTo(golden(golden));
  }
}
