package io.symbolicate.symbols.objects;

import com.github.luben.zstd.Zstd;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.zip.Deflater;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

/**
 * Writes the seeds of {@link ObjectFuzzTests}: ELF files of our own {@link ElfBuilder} with every
 * feature the readers handle (compressed sections of each kind, notes, symbols, links,
 * MiniDebugInfo), and heads (at most 4 KB) of the peer fixtures, some mutated (sizes that lie,
 * counts that overflow, a symbol table moved into the head). Run from the module directory:
 * {@code java -cp <test classpath> io.symbolicate.symbols.objects.ObjectFuzzSeeds}.
 */
final class ObjectFuzzSeeds {
  static final int MAX_HEAD = 4096;

  private final Path out;

  private ObjectFuzzSeeds(Path out) {
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    Path resources =
        Paths.get(args.length > 0 ? args[0] : "src/test/resources")
            .resolve("io/symbolicate/symbols/objects/ObjectFuzzTestsInputs");
    ObjectFuzzSeeds s = new ObjectFuzzSeeds(resources);
    s.elfSeeds();
    s.machoSeeds();
    s.peSeeds();
  }

  // ------------------------------------------------------------------ PE

  /**
   * Whole small images (a PE's debug directory and exports lie past its first 4 KB, so heads
   * would only test the headers): symbolic's crash.exe (x86, 19.5 KB, with CodeView) and
   * cfi_chained_loop.exe (x64, 1 KB), Mozilla's basic32-dwarf.dll head (exports, long section
   * names), and mutants with counts and offsets that lie.
   */
  private void peSeeds() throws IOException {
    byte[] crash = head("getsentry-symbolic/testutils/windows/crash.exe", 20 << 10);
    write("pe", "crash-exe", crash);
    write(
        "pe",
        "cfi-chained-loop",
        head("getsentry-symbolic/testutils/windows/cfi_chained_loop.exe", MAX_HEAD));
    write(
        "pe", "basic32-dwarf-head", head("mozilla-dump_syms/windows/basic32-dwarf.dll", MAX_HEAD));
    int pe = ByteBuffer.wrap(crash).order(ByteOrder.LITTLE_ENDIAN).getInt(0x3c);
    byte[] sections = crash.clone();
    ByteBuffer.wrap(sections).order(ByteOrder.LITTLE_ENDIAN).putShort(pe + 6, (short) 0xffff);
    write("pe", "crash-exe-65535-sections", sections);
    byte[] debugDir = crash.clone();
    ByteBuffer.wrap(debugDir).order(ByteOrder.LITTLE_ENDIAN).putInt(pe + 24 + 96 + 8 * 6 + 4, -1);
    write("pe", "crash-exe-debug-dir-4gb", debugDir);
  }

  private static Path difs(String rel) {
    return SharedFixtures.fixtures("difs").resolve(rel);
  }

  private static byte[] head(String rel, int n) throws IOException {
    byte[] all = Files.readAllBytes(difs(rel));
    return Arrays.copyOf(all, Math.min(n, all.length));
  }

  private void write(String target, String name, byte[] bytes) throws IOException {
    if (bytes.length > 20 << 10) {
      throw new IllegalStateException(name + " is " + bytes.length + " bytes");
    }
    Path dir = out.resolve(target);
    Files.createDirectories(dir);
    Files.write(dir.resolve("seed-" + name), bytes);
  }

  // ------------------------------------------------------------------ ELF

  private void elfSeeds() throws IOException {
    write("elf", "built-64le", built(true, ByteOrder.LITTLE_ENDIAN, ElfFile.EM_X86_64));
    write("elf", "built-32be", built(false, ByteOrder.BIG_ENDIAN, ElfFile.EM_PPC));
    write("elf", "built-32le-arm", built(false, ByteOrder.LITTLE_ENDIAN, ElfFile.EM_ARM));

    byte[] full = head("mozilla-dump_syms/linux/basic.full", MAX_HEAD);
    write("elf", "basic-full-head", full);
    byte[] flipped = full.clone();
    ByteBuffer.wrap(flipped).order(ByteOrder.LITTLE_ENDIAN).putShort(56, (short) 0x7fff); // e_phnum
    write("elf", "basic-full-head-phnum", flipped);
    byte[] stripped = head("mozilla-dump_syms/linux/basic.stripped", MAX_HEAD);
    stripped[0x2c4 + 12] ^= 0x20; // the build-id note's owner: "gNU"
    write("elf", "basic-stripped-head-note", stripped);
    write(
        "elf", "dynsyms-only-head", head("getsentry-symbolic/testutils/linux/dynsyms_only", 2048));

    // symbolic's regression files, their declared sizes changed: a bomb, and a true size
    byte[] shf = head("getsentry-symbolic/testutils/regression/elf_compressed_shf", MAX_HEAD);
    ByteBuffer.wrap(shf).order(ByteOrder.LITTLE_ENDIAN).putLong(0x48, 1L << 40);
    write("elf", "compressed-shf-claims-1tib", shf);
    byte[] gnu = head("getsentry-symbolic/testutils/regression/elf_compressed_gnu", MAX_HEAD);
    ByteBuffer.wrap(gnu).order(ByteOrder.BIG_ENDIAN).putLong(0x44, 4);
    write("elf", "compressed-gnu-true-size", gnu);
  }

  /** An ELF with each kind of section the readers handle, all small. */
  static byte[] built(boolean is64, ByteOrder order, int machine) throws IOException {
    byte[] text = new byte[96];
    for (int i = 0; i < text.length; i++) {
      text[i] = (byte) (i * 7);
    }
    byte[] info =
        "DWARF info bytes, compressed with zlib ".repeat(4).getBytes(StandardCharsets.US_ASCII);
    byte[] str = "main\0helper\0/src/a.c\0".repeat(3).getBytes(StandardCharsets.US_ASCII);
    byte[] line = "line program ".repeat(8).getBytes(StandardCharsets.US_ASCII);
    byte[] strtab = "\0main\0helper\0_start\0".getBytes(StandardCharsets.US_ASCII);
    int textIndex = 1;
    byte[] symtab =
        symtab(
            is64,
            order,
            textIndex,
            new long[][] {{1, 0x1000, 32}, {6, 0x1020, 16}, {13, 0x1030, 8}});
    byte[] inner =
        new ElfBuilder(is64, order, machine, ElfFile.ET_EXEC)
            .section(
                ".symtab",
                ElfSectionHeader.SHT_SYMTAB,
                0,
                0,
                symtab(is64, order, 1, new long[][] {{1, 0x1040, 4}}),
                2)
            .section(
                ".strtab",
                ElfSectionHeader.SHT_STRTAB,
                0,
                0,
                "\0mini\0".getBytes(StandardCharsets.US_ASCII))
            .build();
    long code = ElfSectionHeader.SHF_ALLOC | ElfSectionHeader.SHF_EXECINSTR;
    return new ElfBuilder(is64, order, machine, ElfFile.ET_EXEC)
        .section(".text", 1, code, 0x1000, text) // 1
        .section(".note.gnu.build-id", ElfSectionHeader.SHT_NOTE, 2, 0x400, buildIdNote(order)) // 2
        .section(".symtab", ElfSectionHeader.SHT_SYMTAB, 0, 0, symtab, 4) // 3
        .section(".strtab", ElfSectionHeader.SHT_STRTAB, 0, 0, strtab) // 4
        .section(
            ".debug_info",
            1,
            ElfSectionHeader.SHF_COMPRESSED,
            0,
            chdr(is64, order, ElfFile.ELFCOMPRESS_ZLIB, info, deflate(info)))
        .section(
            ".debug_str",
            1,
            ElfSectionHeader.SHF_COMPRESSED,
            0,
            chdr(is64, order, ElfFile.ELFCOMPRESS_ZSTD, str, Zstd.compress(str)))
        .section(".zdebug_line", 1, 0, 0, zdebug(line))
        .section(
            ".eh_frame",
            1,
            ElfSectionHeader.SHF_ALLOC,
            0x2000,
            new byte[] {16, 0, 0, 0, 0, 0, 0, 0, 1, 'z', 'R', 0})
        .section(
            ".gnu_debuglink",
            1,
            0,
            0,
            "a.debug\0\u0001\u0002\u0003\u0004".getBytes(StandardCharsets.ISO_8859_1))
        .section(
            ".gnu_debugaltlink",
            1,
            0,
            0,
            "alt.dwz\0\u0012\u0034\u0056".getBytes(StandardCharsets.ISO_8859_1))
        .section(".gnu_debugdata", 1, 0, 0, xz(inner))
        .section(".bss", ElfSectionHeader.SHT_NOBITS, 3, 0x3000, new byte[32])
        .build();
  }

  /** Symbols {name offset, value, size} as STT_FUNC in section {@code shndx}, after the null one. */
  static byte[] symtab(boolean is64, ByteOrder order, int shndx, long[][] syms) {
    int entry = is64 ? 24 : 16;
    ByteBuffer b = ByteBuffer.allocate(entry * (syms.length + 1)).order(order);
    b.position(entry);
    for (long[] s : syms) {
      if (is64) {
        b.putInt((int) s[0]).put((byte) 0x12).put((byte) 0).putShort((short) shndx);
        b.putLong(s[1]).putLong(s[2]);
      } else {
        b.putInt((int) s[0]).putInt((int) s[1]).putInt((int) s[2]);
        b.put((byte) 0x12).put((byte) 0).putShort((short) shndx);
      }
    }
    return b.array();
  }

  static byte[] buildIdNote(ByteOrder order) {
    ByteBuffer b = ByteBuffer.allocate(16 + 20).order(order);
    b.putInt(4)
        .putInt(20)
        .putInt(ElfNotes.NT_GNU_BUILD_ID)
        .put("GNU\0".getBytes(StandardCharsets.US_ASCII));
    for (int i = 0; i < 20; i++) {
      b.put((byte) (0x10 + i));
    }
    return b.array();
  }

  static byte[] chdr(boolean is64, ByteOrder order, int type, byte[] plain, byte[] packed) {
    ByteBuffer b = ByteBuffer.allocate((is64 ? 24 : 12) + packed.length).order(order);
    if (is64) {
      b.putInt(type).putInt(0).putLong(plain.length).putLong(1);
    } else {
      b.putInt(type).putInt(plain.length).putInt(1);
    }
    return b.put(packed).array();
  }

  static byte[] zdebug(byte[] plain) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    o.writeBytes("ZLIB".getBytes(StandardCharsets.US_ASCII));
    o.writeBytes(ByteBuffer.allocate(8).putLong(plain.length).array());
    o.writeBytes(deflate(plain));
    return o.toByteArray();
  }

  static byte[] deflate(byte[] in) {
    Deflater d = new Deflater();
    d.setInput(in);
    d.finish();
    byte[] buf = new byte[in.length + 64];
    int n = d.deflate(buf);
    d.end();
    return Arrays.copyOf(buf, n);
  }

  static byte[] xz(byte[] in) throws IOException {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    try (XZOutputStream x = new XZOutputStream(o, new LZMA2Options(0))) {
      x.write(in);
    }
    return o.toByteArray();
  }

  // ------------------------------------------------------------------ Mach-O

  private void machoSeeds() throws IOException {
    String crash = "getsentry-symbolic/testutils/macos/crash";
    byte[] exe = head(crash, MAX_HEAD);
    write("macho", "crash-head", exe);
    write("macho", "crash-head-symtab-inside", symtabInside(exe));
    byte[] ncmds = exe.clone();
    ByteBuffer.wrap(ncmds).order(ByteOrder.LITTLE_ENDIAN).putInt(16, 0x7fffffff);
    write("macho", "crash-head-ncmds", ncmds);
    write(
        "macho",
        "dsym-head",
        head("getsentry-symbolic/testutils/macos/crash.dSYM/Contents/Resources/DWARF/crash", 3000));
    write(
        "macho",
        "breakpad-i386-head",
        head(
            "google-breakpad/src/client/mac/handler/testcases/testdata/dump_syms_dwarf_data",
            MAX_HEAD));
    write("macho", "fat-two-heads", fat());
  }

  /** A head whose LC_SYMTAB is moved to lie inside it: a few symbols and a string table. */
  static byte[] symtabInside(byte[] head) {
    byte[] b = head.clone();
    ByteBuffer h = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    int ncmds = h.getInt(16);
    int at = 32;
    for (int i = 0; i < ncmds && at + 8 <= b.length; i++) {
      int cmd = h.getInt(at);
      int size = h.getInt(at + 4);
      if (cmd == MachOFile.LC_SYMTAB) {
        int symoff = b.length - 1024;
        h.putInt(at + 8, symoff)
            .putInt(at + 12, 32)
            .putInt(at + 16, symoff + 512)
            .putInt(at + 20, 512);
        for (int s = 0; s < 32; s++) { // N_SECT | N_EXT in section 1, names 16 bytes apart
          h.putInt(symoff + s * 16, 1 + s * 15).put(symoff + s * 16 + 4, (byte) 0x0f);
          h.put(symoff + s * 16 + 5, (byte) 1).putLong(symoff + s * 16 + 8, 0x100000d20L + s * 32);
        }
        return b;
      }
      at += Math.max(size, 8);
    }
    throw new IllegalStateException("no LC_SYMTAB in the head");
  }

  /** A fat file of our own whose two slices are heads of the Example.framework dSYM's slices. */
  static byte[] fat() throws IOException {
    byte[] all =
        Files.readAllBytes(
            difs(
                "getsentry-symbolic/testutils/macos/Example.framework.dSYM/Contents/Resources/DWARF/Example"));
    ByteBuffer src = ByteBuffer.wrap(all).order(ByteOrder.BIG_ENDIAN);
    int n = 1800;
    ByteBuffer out = ByteBuffer.allocate(64 + 2 * n).order(ByteOrder.BIG_ENDIAN);
    out.putInt(FatFile.FAT_MAGIC).putInt(2);
    for (int i = 0; i < 2; i++) {
      int entry = 8 + i * 20;
      out.putInt(src.getInt(entry)).putInt(src.getInt(entry + 4));
      out.putInt(64 + i * n).putInt(n).putInt(0);
      int offset = src.getInt(entry + 8);
      out.put(64 + i * n, all, offset, n);
    }
    return out.array();
  }
}
