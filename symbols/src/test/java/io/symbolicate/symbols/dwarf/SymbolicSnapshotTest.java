package io.symbolicate.symbols.dwarf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.symbolicate.symbols.dumpsyms.SymWriter;
import io.symbolicate.symbols.objects.ElfFile;
import io.symbolicate.symbols.objects.ElfProgramHeader;
import io.symbolicate.symbols.objects.ElfSymbols;
import io.symbolicate.symbols.objects.MachOFile;
import io.symbolicate.symbols.objects.MachOIdentity;
import io.symbolicate.symbols.objects.ObjectSymbol;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * symbolic's function trees ({@code test_objects__elf_functions.snap}: the first ten functions of
 * crash.debug with their lines at each inline level and their inlinees), against the trees the
 * reader builds before writing records. Names are compared mangled (the snapshot shows them so);
 * files by name (the snapshot prints the line table's directory apart, we join and normalise it).
 */
class SymbolicSnapshotTest {
  private static final Path SYMBOLIC =
      SharedFixtures.fixtures("difs").resolve("getsentry-symbolic");

  /** The snapshot as "depth > address name size" and "depth address file:line" rows. */
  static List<String> snapshotRows(Path snap) throws Exception {
    List<String> rows = new ArrayList<>();
    List<String> lines = Files.readAllLines(snap);
    int start = lines.subList(1, lines.size()).indexOf("---") + 2;
    boolean inVariables = false;
    for (String l : lines.subList(start, lines.size())) {
      String t = l.strip();
      if (t.isEmpty()) {
        inVariables = false;
        continue;
      }
      int depth = (l.length() - l.stripLeading().length()) / 2;
      if (t.equals("variables:")) {
        inVariables = true;
        continue;
      }
      if (inVariables && !t.startsWith(">")) {
        continue;
      }
      inVariables = false;
      if (t.startsWith("> ")) {
        // "> 0x1ec0: name (0x3b)"
        int colon = t.indexOf(": ");
        int paren = t.lastIndexOf(" (0x");
        rows.add(
            depth
                + " > "
                + t.substring(2, colon)
                + " "
                + t.substring(colon + 2, paren)
                + " "
                + t.substring(paren + 2, t.length() - 1));
      } else {
        // "0x1ec0: main.cpp:9 (../linux)"
        int colon = t.indexOf(": ");
        String rest = t.substring(colon + 2);
        int dir = rest.lastIndexOf(" (");
        String file = dir >= 0 ? rest.substring(0, dir) : rest;
        file = file.substring(file.lastIndexOf('/') + 1);
        rows.add((depth - 1) + " " + t.substring(0, colon) + " " + file);
      }
    }
    return rows;
  }

  static void treeRows(FunctionBuilder.Node n, int depth, List<String> rows) {
    rows.add(
        depth
            + " > 0x"
            + Long.toHexString(n.address)
            + " "
            + n.name
            + " 0x"
            + Long.toHexString(n.size));
    for (FunctionBuilder.LineRec l : n.lines) {
      String file = l.path.substring(l.path.lastIndexOf('/') + 1);
      rows.add(depth + " 0x" + Long.toHexString(l.address) + " " + file + ":" + l.line);
    }
    for (FunctionBuilder.Node c : n.children) {
      treeRows(c, depth + 1, rows);
    }
  }

  /** The vaddr of the first PT_LOAD at file offset 0 (Breakpad's and symbolic's base). */
  static long loadAddress(ElfFile elf) {
    return elf.programHeaders().stream()
        .filter(p -> p.type() == ElfProgramHeader.PT_LOAD && p.offset() == 0)
        .mapToLong(ElfProgramHeader::virtualAddress)
        .findFirst()
        .orElse(0);
  }

  @Test
  void elfFunctions() throws Exception {
    Path file = SYMBOLIC.resolve("testutils/linux/crash.debug");
    ElfFile elf = ElfFile.open(file);
    Map<Long, String> symbols = new HashMap<>();
    for (ObjectSymbol s : ElfSymbols.functions(elf)) {
      symbols.putIfAbsent(s.address(), s.name());
    }
    DwarfReader reader =
        new DwarfReader(
            elf,
            DwarfOptions.defaults()
                .withLoadAddress(loadAddress(elf))
                .withInlines(true)
                .withDemangler(s -> s)
                .withSymbolNames(symbols::get));
    List<FunctionBuilder.Node> trees = new ArrayList<>();
    reader.treeListener(trees::add);
    reader.read(new SymWriter());
    List<String> ours = new ArrayList<>();
    for (FunctionBuilder.Node n : trees.subList(0, 10)) {
      treeRows(n, 0, ours);
    }
    List<String> expected =
        snapshotRows(
            SYMBOLIC.resolve(
                "snapshots/symbolic-debuginfo/tests/snapshots/test_objects__elf_functions.snap"));
    assertEquals(String.join("\n", expected), String.join("\n", ours));
  }

  @Test
  void machFunctions() throws Exception {
    MachOFile macho =
        MachOFile.open(
            SYMBOLIC.resolve("testutils/macos/crash.dSYM/Contents/Resources/DWARF/crash"), null);
    DwarfReader reader =
        new DwarfReader(
            macho,
            DwarfOptions.defaults()
                .withLoadAddress(MachOIdentity.of(macho).loadAddress())
                .withInlines(true)
                .withDemangler(s -> s));
    List<FunctionBuilder.Node> trees = new ArrayList<>();
    reader.treeListener(trees::add);
    reader.read(new SymWriter());
    List<String> ours = new ArrayList<>();
    for (FunctionBuilder.Node n : trees.subList(0, 10)) {
      treeRows(n, 0, ours);
    }
    List<String> expected =
        snapshotRows(
            SYMBOLIC.resolve(
                "snapshots/symbolic-debuginfo/tests/snapshots/test_objects__mach_functions.snap"));
    assertEquals(String.join("\n", expected), String.join("\n", ours));
  }
}
