package io.symbolicate.symbols.objects;

import static io.symbolicate.symbols.testing.Fuzzing.check;
import static io.symbolicate.symbols.testing.Fuzzing.expect;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.symbolicate.symbols.testing.Fuzzing;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz targets of the object containers (docs/fuzzing.md). In every build they replay their
 * corpora under {@code src/test/resources/.../ObjectFuzzTestsInputs/<method>/} (seeds written by
 * {@link ObjectFuzzSeeds}); {@code scripts/fuzz.sh objects-elf} runs one coverage-guided.
 */
class ObjectFuzzTests {
  /** The sections the DWARF, CFI and dumpsyms readers ask for. */
  private static final List<String> READER_SECTIONS =
      List.of(
          ".debug_info",
          ".debug_abbrev",
          ".debug_line",
          ".debug_str",
          ".debug_ranges",
          ".debug_str_offsets",
          ".eh_frame",
          ".eh_frame_hdr",
          ".debug_frame",
          ".text",
          "__unwind_info");

  /**
   * Bytes as an ELF file: headers, every section decompressed, identity, publics (with
   * MiniDebugInfo), debug links; or {@link ObjectFormatException}. An uncompressed section is
   * as long as its header says; the debug id has Breakpad's 33 digits; publics are sorted.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void elf(byte[] data) throws Exception {
    expect(
        data,
        () -> {
          ElfFile elf = ElfFile.parse(data);
          for (ElfSectionHeader h : elf.sections()) {
            Optional<Section> s = elf.section(h.name());
            // section(name) answers from the first header of that name
            ElfSectionHeader first = elf.sectionHeader(h.name()).orElse(h);
            if (s.isPresent() && !first.compressed() && !first.name().startsWith(".zdebug")) {
              check(s.get().size() == first.size(), "uncompressed section size differs");
            }
          }
          exercise(new ObjectFile("fuzz", elf));
        },
        ObjectFormatException.class);
  }

  /**
   * Bytes as a Mach-O file, thin or fat (every slice): headers, sections, identity and symbols;
   * or {@link ObjectFormatException}. Also through {@link ObjectFiles#open(byte[], String,
   * String)}, which tells the format by its magic.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void macho(byte[] data) throws Exception {
    expect(
        data,
        () -> {
          ObjectBytes bytes = ObjectBytes.of(data);
          if (FatFile.isFat(bytes)) {
            for (FatFile.Slice slice : FatFile.slices(bytes)) {
              MachOFile m = MachOFile.select(bytes, slice.arch());
              exercise(new ObjectFile("fuzz", m));
            }
          } else {
            exercise(new ObjectFile("fuzz", new MachOFile(bytes)));
          }
        },
        ObjectFormatException.class);
    expect(data, () -> exercise(ObjectFiles.open(data, "fuzz", null)), ObjectFormatException.class);
  }

  /**
   * Bytes as a PE image: headers, sections (each by name), CodeView record, exports, identity;
   * or {@link ObjectFormatException}. Also through {@link ObjectFiles#open(byte[], String,
   * String)}. A section's bytes are never longer than its raw size; exports lie in a section.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void pe(byte[] data) throws Exception {
    expect(
        data,
        () -> {
          PeFile pe = PeFile.parse(data);
          for (PeSection h : pe.sections()) {
            pe.section(h.name())
                .ifPresent(s -> check(s.size() <= h.rawSize() || h.rawSize() == 0, "section size"));
          }
          pe.codeView().ifPresent(cv -> check(cv.debugId().length() >= 33, "debug id"));
          for (ObjectSymbol s : pe.exports()) {
            check(pe.sectionAt(s.address()).isPresent(), "export outside the sections");
          }
          check(pe.breakpadCodeId().length() >= 9, "code id");
          exercise(new ObjectFile("fuzz", pe));
        },
        ObjectFormatException.class);
    expect(data, () -> exercise(ObjectFiles.open(data, "fuzz", null)), ObjectFormatException.class);
  }

  private static void exercise(ObjectFile f) {
    for (String name : READER_SECTIONS) {
      f.section(name).ifPresent(s -> check(s.data().position() == 0, "section not at 0"));
    }
    ObjectIdentity id = f.identity();
    // 32 GUID digits and the age in hex (0 for ELF and Mach-O; a PE's PDB age is any u32)
    int digits = id.debugId().length();
    check(digits >= 33 && digits <= 40, "debug id of " + digits + " digits");
    check(id.debugIdGuid().length() == 36 || id.debugIdGuid().charAt(36) == '-', "guid form");
    List<ObjectSymbol> symbols = f.publicSymbols();
    for (int i = 1; i < symbols.size(); i++) {
      check(
          symbols.get(i - 1).address() < symbols.get(i).address(),
          "publics not sorted one per address");
    }
    f.debugLink();
    f.debugAltLink();
  }
}
