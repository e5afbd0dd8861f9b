package io.symbolicate.symbols.dwarf;

import io.symbolicate.symbols.objects.ElfFile;
import io.symbolicate.symbols.objects.ObjectSections;
import io.symbolicate.symbols.objects.Section;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Writes the seeds of {@code DwarfFuzzTests#dwp}: the tiny split units of {@link TinySplitDwarf}
 * (DWARF 5 and GNU DWARF 4, each with its package) and, when the generated debug-file corpus is
 * given, the skeletons and packages of its {@code split-dwp} cases. Run on the test classpath:
 * {@code java ... io.symbolicate.symbols.dwarf.SplitDwarfFuzzSeeds OUTDIR [DIFS_CORPUS]}.
 */
final class SplitDwarfFuzzSeeds {
  private SplitDwarfFuzzSeeds() {}

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args[0]);
    Files.createDirectories(out);
    for (int v : new int[] {4, 5}) {
      long id = 0x1122334455667788L;
      ObjectSections both = merged(TinySplitDwarf.skeleton(v, id), TinySplitDwarf.dwp(v, id));
      Files.write(
          out.resolve("tiny-dwarf" + v), FuzzSections.encode(both, 1, FuzzSections.SPLIT_NAMES));
    }
    if (args.length > 1) {
      Path corpus = Path.of(args[1]);
      for (String c :
          new String[] {
            "gcc-O2-dwarf4-split-dwp", "clang-O2-dwarf4-split-dwp", "clang-O2-dwarf5-split-dwp"
          }) {
        ObjectSections both =
            merged(
                ElfFile.open(corpus.resolve(c).resolve("app")),
                ElfFile.open(corpus.resolve(c).resolve("app.dwp")));
        Files.write(out.resolve(c), FuzzSections.encode(both, 1, FuzzSections.SPLIT_NAMES));
      }
    }
  }

  /** The sections of {@code a}, then those only {@code b} has. */
  static ObjectSections merged(ObjectSections a, ObjectSections b) {
    return new ObjectSections() {
      @Override
      public Optional<Section> section(String name) {
        Optional<Section> s = a.section(name);
        return s.isPresent() ? s : b.section(name);
      }

      @Override
      public boolean littleEndian() {
        return a.littleEndian();
      }

      @Override
      public int addressSize() {
        return a.addressSize();
      }
    };
  }
}
