package io.symbolicate.symbols.objects;

import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/** The {@link ObjectIdentity} of an ELF file, computed as Breakpad and Symbolicator do. */
public final class ElfIdentity {
  /** Breakpad hashes at most this much of {@code .text} when a file has no build id. */
  static final int TEXT_HASH_BYTES = 4096;

  private ElfIdentity() {}

  public static ObjectIdentity of(ElfFile elf) {
    Optional<byte[]> buildId = ElfNotes.buildId(elf);
    byte[] guid = buildId.map(id -> guid(id, elf.littleEndian())).orElseGet(() -> textHash(elf));
    Set<ObjectFeature> features = EnumSet.noneOf(ObjectFeature.class);
    if (ElfSymbols.hasSymbols(elf)) {
      features.add(ObjectFeature.SYMTAB);
    }
    if (hasData(elf, ".debug_info") || isSplitDwarf(elf)) {
      features.add(ObjectFeature.DEBUG);
    }
    if (hasData(elf, ".eh_frame") || hasData(elf, ".debug_frame")) {
      features.add(ObjectFeature.UNWIND);
    }
    return new ObjectIdentity(
        "elf",
        buildId.map(Hex::lower).orElse(null),
        ObjectIdentity.breakpadDebugId(guid, 0),
        arch(elf),
        kind(elf),
        loadAddress(elf),
        features);
  }

  /**
   * The first 16 bytes of the build id (zero-padded) as a GUID; in a little-endian file its first
   * three fields are byte-swapped, since Breakpad reads them as little-endian integers.
   */
  static byte[] guid(byte[] buildId, boolean littleEndian) {
    byte[] g = new byte[16];
    System.arraycopy(buildId, 0, g, 0, Math.min(16, buildId.length));
    if (littleEndian) {
      reverse(g, 0, 4);
      reverse(g, 4, 2);
      reverse(g, 6, 2);
    }
    return g;
  }

  /**
   * Breakpad's identifier of a file without build id: the first page of {@code .text} XORed in
   * 16-byte blocks (a short last block counts as zero-padded), then treated as a GUID like a
   * build id. All zeros when there is no {@code .text} to hash.
   */
  static byte[] textHash(ElfFile elf) {
    byte[] h = new byte[16];
    Optional<Section> text = elf.section(".text");
    if (text.isPresent()) {
      ByteBuffer data = text.get().data();
      int n = Math.min(TEXT_HASH_BYTES, data.limit());
      for (int i = 0; i < n; i++) {
        h[i % 16] ^= data.get(i);
      }
    }
    return guid(h, elf.littleEndian());
  }

  /** The architecture as Breakpad's MODULE line and Symbolicator name it. */
  static String arch(ElfFile elf) {
    return switch (elf.machine()) {
      case ElfFile.EM_386 -> "x86";
      case ElfFile.EM_X86_64 -> "x86_64";
      case ElfFile.EM_ARM -> "arm";
      case ElfFile.EM_AARCH64 -> "arm64";
      case ElfFile.EM_MIPS -> elf.is64() ? "mips64" : "mips";
      case ElfFile.EM_PPC -> "ppc";
      case ElfFile.EM_PPC64 -> "ppc64";
      case ElfFile.EM_S390 -> "s390";
      case ElfFile.EM_SPARCV9 -> "sparcv9";
      case ElfFile.EM_RISCV -> elf.is64() ? "riscv64" : "riscv32";
      default -> "unknown";
    };
  }

  /**
   * The kind from {@code e_type}, except that a debug companion keeps its original type: an
   * executable without interpreter, or a library without {@code .text} bytes, is one (as
   * Symbolicator decides).
   */
  static ObjectKind kind(ElfFile elf) {
    return switch (elf.type()) {
      case ElfFile.ET_REL -> isSplitDwarf(elf) ? ObjectKind.DEBUG : ObjectKind.RELOCATABLE;
      case ElfFile.ET_EXEC -> hasInterpreter(elf) ? ObjectKind.EXECUTABLE : ObjectKind.DEBUG;
      case ElfFile.ET_DYN -> hasData(elf, ".text") ? ObjectKind.LIBRARY : ObjectKind.DEBUG;
      case ElfFile.ET_CORE -> ObjectKind.DUMP;
      default -> ObjectKind.OTHER;
    };
  }

  /**
   * A split DWARF file: a {@code .dwo} or a {@code .dwp} package, an ELF relocatable holding only
   * {@code .debug_*.dwo} sections (no code), which debug info only a skeleton unit leads to.
   */
  public static boolean isSplitDwarf(ElfFile elf) {
    return elf.type() == ElfFile.ET_REL
        && hasData(elf, ".debug_info.dwo")
        && !hasData(elf, ".text");
  }

  /** The virtual address of the first {@code PT_LOAD} segment, 0 without one. */
  static long loadAddress(ElfFile elf) {
    for (ElfProgramHeader p : elf.programHeaders()) {
      if (p.type() == ElfProgramHeader.PT_LOAD) {
        return p.virtualAddress();
      }
    }
    return 0;
  }

  private static boolean hasInterpreter(ElfFile elf) {
    for (ElfProgramHeader p : elf.programHeaders()) {
      if (p.type() == ElfProgramHeader.PT_INTERP && p.fileSize() > 1) {
        ByteBuffer b = elf.fileBytes(p.offset(), 1, "interpreter");
        return b.get(0) != 0;
      }
    }
    return false;
  }

  private static boolean hasData(ElfFile elf, String name) {
    Optional<ElfSectionHeader> s = elf.sectionHeader(name);
    if (s.isEmpty() && name.startsWith(".debug_")) {
      s = elf.sectionHeader(".zdebug_" + name.substring(7));
    }
    return s.isPresent() && s.get().hasData();
  }

  private static void reverse(byte[] b, int from, int len) {
    for (int i = 0, j = len - 1; i < j; i++, j--) {
      byte t = b[from + i];
      b[from + i] = b[from + j];
      b[from + j] = t;
    }
  }
}
