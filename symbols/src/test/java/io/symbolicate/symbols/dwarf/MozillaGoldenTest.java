package io.symbolicate.symbols.dwarf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.symbolicate.symbols.dumpsyms.SymWriter;
import io.symbolicate.symbols.objects.ElfFile;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The FILE, INLINE_ORIGIN, FUNC, line and INLINE records of Mozilla dump_syms' Linux goldens,
 * written from the DWARF of the same files by {@link DwarfReader} and {@link SymWriter}.
 */
class MozillaGoldenTest {
  private static final Path DIR =
      SharedFixtures.fixtures("difs").resolve("mozilla-dump_syms/linux");

  private static String dump(String file, boolean inlines) throws Exception {
    ElfFile elf = ElfFile.open(DIR.resolve(file));
    TestElf symbols = new TestElf(DIR.resolve(file));
    DwarfOptions options =
        DwarfOptions.defaults()
            .withInlines(inlines)
            .withDemangler(new CxxFilt())
            .withSymbolNames(symbols.functionSymbols::get);
    SymWriter writer = new SymWriter();
    new DwarfReader(elf, options).read(writer);
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

  @Test
  void basicDwzWithoutItsSupplementaryFile() throws Exception {
    // the golden was written without the DWZ file (named in .gnu_debugaltlink, not in the
    // fixtures): names come from the symbol table, inline origins are "<name omitted>"
    assertEquals(golden("basic.dwz.inlines.sym"), records(dump("basic.dwz", true)));
  }
}
