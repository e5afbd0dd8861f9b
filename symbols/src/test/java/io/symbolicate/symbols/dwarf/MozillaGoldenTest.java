package io.symbolicate.symbols.dwarf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.symbolicate.symbols.demangle.Demangler;
import io.symbolicate.symbols.dumpsyms.SymWriter;
import io.symbolicate.symbols.objects.ElfFile;
import io.symbolicate.symbols.objects.ElfSymbols;
import io.symbolicate.symbols.objects.ObjectSymbol;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The FILE, INLINE_ORIGIN, FUNC, line and INLINE records of Mozilla dump_syms' Linux goldens,
 * written from the DWARF of the same files by {@link DwarfReader} and {@link SymWriter}.
 */
class MozillaGoldenTest {
  private static final Path DIR =
      SharedFixtures.fixtures("difs").resolve("mozilla-dump_syms/linux");

  private static String dump(String file, boolean inlines) throws Exception {
    return dump(DIR.resolve(file), null, inlines);
  }

  private static String dump(Path file, Path supplementary, boolean inlines) throws Exception {
    ElfFile elf = ElfFile.open(file);
    Map<Long, String> symbols = new HashMap<>();
    for (ObjectSymbol s : ElfSymbols.functions(elf)) {
      symbols.putIfAbsent(s.address(), s.name());
    }
    DwarfOptions options =
        DwarfOptions.defaults()
            .withInlines(inlines)
            .withDemangler(Demangler::demangle)
            .withSymbolNames(symbols::get);
    SymWriter writer = new SymWriter();
    new DwarfReader(elf, supplementary == null ? null : ElfFile.open(supplementary), options)
        .read(writer);
    StringWriter out = new StringWriter();
    writer.writeTo(out);
    return out.toString();
  }

  /** The golden's records of the kinds the DWARF reader writes. */
  private static String records(String text) {
    return text.lines()
        .filter(
            l ->
                !l.startsWith("MODULE")
                    && !l.startsWith("INFO")
                    && !l.startsWith("PUBLIC")
                    && !l.startsWith("STACK"))
        .collect(Collectors.joining("\n"));
  }

  private static String golden(String name) throws IOException {
    return records(Files.readString(DIR.resolve(name)));
  }

  @Test
  void basicFull() throws Exception {
    assertEquals(golden("basic.full.sym"), records(dump("basic.full", false)));
  }

  @Test
  void basicFullInlines() throws Exception {
    assertEquals(golden("basic.full.inlines.sym"), records(dump("basic.full", true)));
  }

  @Test
  void basicDbg() throws Exception {
    assertEquals(golden("basic.dbg.sym"), records(dump("basic.dbg", false)));
  }

  /**
   * basic.full made into a DWZ pair here by {@code dwz -m} (with a copy of itself, so everything
   * moves to the supplementary file): read with its supplementary file, it gives the records of
   * basic.full.inlines.sym again.
   */
  @Test
  void dwzWithItsSupplementaryFile(@TempDir Path tmp) throws Exception {
    Path a = tmp.resolve("a");
    Path b = tmp.resolve("b");
    Files.copy(DIR.resolve("basic.full"), a);
    Files.copy(DIR.resolve("basic.full"), b);
    Process p =
        new ProcessBuilder("dwz", "-m", "alt.dwz", "a", "b")
            .directory(tmp.toFile())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes());
    assertEquals(0, p.waitFor(), out);
    ElfFile made = ElfFile.open(a);
    assertTrue(made.section(".gnu_debugaltlink").isPresent(), "dwz made no DWZ pair");
    assertTrue(made.section(".debug_str").isEmpty(), "strings left in the main file");
    String records = records(dump(a, tmp.resolve("alt.dwz"), true));
    assertTrue(records.contains("INLINE_ORIGIN 0 inline_4(int)"), records);
    assertEquals(golden("basic.full.inlines.sym"), records);
  }

  @Test
  void basicDwzWithoutItsSupplementaryFile() throws Exception {
    // the golden was written without the DWZ file (named in .gnu_debugaltlink, not in the
    // fixtures): names come from the symbol table, inline origins are "<name omitted>"
    assertEquals(golden("basic.dwz.inlines.sym"), records(dump("basic.dwz", true)));
  }
}
