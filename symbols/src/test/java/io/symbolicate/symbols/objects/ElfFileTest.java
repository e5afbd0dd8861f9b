package io.symbolicate.symbols.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

class ElfFileTest {
  static Path difs(String path) {
    return SharedFixtures.fixtures("difs").resolve(path);
  }

  static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  @Test
  void zlibAndZstdCompressedCopiesGiveTheSameDebugSections() throws Exception {
    ElfFile plain = ElfFile.open(difs("getsentry-symbolic/testutils/linux/crash.debug"));
    ElfFile zlib = ElfFile.open(difs("getsentry-symbolic/testutils/linux/crash.debug-zlib"));
    ElfFile zstd = ElfFile.open(difs("getsentry-symbolic/testutils/linux/crash.debug-zstd"));
    // the copies really are compressed (readelf shows flag C), so this checks the inflaters
    assertThat(zlib.sectionHeader(".debug_info").orElseThrow().compressed()).isTrue();
    assertThat(zstd.sectionHeader(".debug_info").orElseThrow().compressed()).isTrue();
    for (String name :
        List.of(".debug_info", ".debug_abbrev", ".debug_line", ".debug_str", ".debug_aranges")) {
      byte[] expected = bytes(plain.section(name).orElseThrow().data());
      assertThat(expected).as(name).isNotEmpty();
      assertThat(bytes(zlib.section(name).orElseThrow().data())).as(name).isEqualTo(expected);
      assertThat(bytes(zstd.section(name).orElseThrow().data())).as(name).isEqualTo(expected);
    }
    Section info = zstd.section(".debug_info").orElseThrow();
    assertThat(info.name()).isEqualTo(".debug_info");
    assertThat(info.data().order()).isEqualTo(ByteOrder.LITTLE_ENDIAN);
    assertThat(info.size())
        .isEqualTo((int) plain.sectionHeader(".debug_info").orElseThrow().size());
  }

  @Test
  void headersOfAnX8664PieExecutable() throws Exception {
    ElfFile elf = ElfFile.open(difs("mozilla-dump_syms/linux/basic.full"));
    assertThat(elf.is64()).isTrue();
    assertThat(elf.littleEndian()).isTrue();
    assertThat(elf.addressSize()).isEqualTo(8);
    assertThat(elf.machine()).isEqualTo(ElfFile.EM_X86_64);
    assertThat(elf.type()).isEqualTo(ElfFile.ET_DYN);
    assertThat(elf.sections().get(0).type()).isEqualTo(ElfSectionHeader.SHT_NULL);
    assertThat(elf.sections())
        .extracting(ElfSectionHeader::name)
        .contains(".text", ".eh_frame", ".eh_frame_hdr", ".symtab", ".dynsym", ".debug_info");
    assertThat(elf.programHeaders())
        .extracting(ElfProgramHeader::type)
        .contains(
            ElfProgramHeader.PT_LOAD, ElfProgramHeader.PT_NOTE, ElfProgramHeader.PT_GNU_EH_FRAME);
    ElfSectionHeader text = elf.sectionHeader(".text").orElseThrow();
    Section section = elf.section(".text").orElseThrow();
    assertThat(section.address()).isEqualTo(text.address());
    assertThat(section.size()).isEqualTo((int) text.size());
    // the entry point lies in .text
    assertThat(elf.entry()).isBetween(text.address(), text.address() + text.size());
  }

  @Test
  void aDebugCompanionHasNoCodeBytes() throws Exception {
    ElfFile dbg = ElfFile.open(difs("mozilla-dump_syms/linux/basic.dbg"));
    assertThat(dbg.sectionHeader(".text").orElseThrow().type())
        .isEqualTo(ElfSectionHeader.SHT_NOBITS);
    assertThat(dbg.section(".text")).isEmpty();
    assertThat(dbg.section(".debug_info")).isPresent();
    assertThat(dbg.section(".debug_nonexistent")).isEmpty();
  }

  @Test
  void fileAndByteArrayReadTheSame() throws Exception {
    Path path = difs("mozilla-dump_syms/linux/basic.full");
    ElfFile mapped = ElfFile.open(path);
    ElfFile inMemory = ElfFile.parse(Files.readAllBytes(path));
    assertThat(inMemory.sections()).isEqualTo(mapped.sections());
    assertThat(inMemory.programHeaders()).isEqualTo(mapped.programHeaders());
    assertThat(bytes(inMemory.section(".debug_line").orElseThrow().data()))
        .isEqualTo(bytes(mapped.section(".debug_line").orElseThrow().data()));
  }

  @Test
  void sectionsThatLieAboutTheirSizeAreRefused() throws Exception {
    // symbolic's regression files: compressed sections declaring 10 bytes that inflate to 4
    for (String name : List.of("elf_compressed_gnu", "elf_compressed_shf")) {
      ElfFile elf = ElfFile.open(difs("getsentry-symbolic/testutils/regression/" + name));
      assertThat(elf.sections()).hasSize(3);
      assertThatThrownBy(() -> elf.section(".debug_info"))
          .isInstanceOf(ObjectFormatException.class)
          .hasMessageContaining("fewer than its declared 10");
    }
  }

  @Test
  void aHugeDeclaredSizeIsRefusedBeforeAllocating() throws Exception {
    byte[] data =
        Files.readAllBytes(difs("getsentry-symbolic/testutils/regression/elf_compressed_shf"));
    // Elf64_Chdr at 0x40: ch_type, ch_reserved, ch_size -> claim 1 TiB
    ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).putLong(0x48, 1L << 40);
    ElfFile elf = ElfFile.parse(data);
    assertThatThrownBy(() -> elf.section(".debug_info"))
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("over the limit");
  }

  @Test
  void dataThatInflatesBeyondItsDeclaredSizeIsRefused() {
    byte[] payload = "0123456789abcdef".repeat(100).getBytes(StandardCharsets.US_ASCII);
    byte[] z = deflate(payload);
    ByteBuffer chdr = ByteBuffer.allocate(24 + z.length).order(ByteOrder.LITTLE_ENDIAN);
    chdr.putInt(ElfFile.ELFCOMPRESS_ZLIB).putInt(0).putLong(100).putLong(1).put(z);
    byte[] elf =
        new ElfBuilder(true, ByteOrder.LITTLE_ENDIAN, ElfFile.EM_X86_64, ElfFile.ET_EXEC)
            .section(".debug_str", 1, ElfSectionHeader.SHF_COMPRESSED, 0, chdr.array())
            .build();
    assertThatThrownBy(() -> ElfFile.parse(elf).section(".debug_str"))
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("beyond its declared size of 100");
  }

  @Test
  void thirtyTwoBitBigEndianWithLegacyZdebug() {
    byte[] payload = "big-endian debug info".getBytes(StandardCharsets.US_ASCII);
    ByteArrayOutputStream zdebug = new ByteArrayOutputStream();
    zdebug.writeBytes("ZLIB".getBytes(StandardCharsets.US_ASCII));
    zdebug.writeBytes(ByteBuffer.allocate(8).putLong(payload.length).array());
    zdebug.writeBytes(deflate(payload));
    byte[] code = {1, 2, 3, 4};
    byte[] bytes =
        new ElfBuilder(false, ByteOrder.BIG_ENDIAN, ElfFile.EM_PPC, ElfFile.ET_EXEC)
            .section(
                ".text",
                1,
                ElfSectionHeader.SHF_ALLOC | ElfSectionHeader.SHF_EXECINSTR,
                0x10000,
                code)
            .section(".zdebug_info", 1, 0, 0, zdebug.toByteArray())
            .section(".bss", ElfSectionHeader.SHT_NOBITS, 0, 0x20000, new byte[64])
            .build();
    ElfFile elf = ElfFile.parse(bytes);
    assertThat(elf.is64()).isFalse();
    assertThat(elf.littleEndian()).isFalse();
    assertThat(elf.addressSize()).isEqualTo(4);
    assertThat(elf.machine()).isEqualTo(ElfFile.EM_PPC);
    Section text = elf.section(".text").orElseThrow();
    assertThat(text.address()).isEqualTo(0x10000);
    assertThat(text.data().order()).isEqualTo(ByteOrder.BIG_ENDIAN);
    assertThat(bytes(text.data())).isEqualTo(code);
    Section info = elf.section(".debug_info").orElseThrow();
    assertThat(info.name()).isEqualTo(".debug_info");
    assertThat(bytes(info.data())).isEqualTo(payload);
    assertThat(elf.section(".bss")).isEmpty();
  }

  @Test
  void truncatedAndForeignFilesAreRefused() throws Exception {
    byte[] full = Files.readAllBytes(difs("mozilla-dump_syms/linux/basic.full"));
    assertThatThrownBy(() -> ElfFile.parse(Arrays.copyOf(full, 10)))
        .isInstanceOf(ObjectFormatException.class);
    // the section headers sit at the end of the file: cut them off
    assertThatThrownBy(() -> ElfFile.parse(Arrays.copyOf(full, full.length - 100)))
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("more than the file holds");
    assertThatThrownBy(
            () -> ElfFile.parse("MZ not an ELF file".getBytes(StandardCharsets.US_ASCII)))
        .isInstanceOf(ObjectFormatException.class)
        .hasMessageContaining("no ELF magic");
  }

  private static byte[] deflate(byte[] in) {
    Deflater d = new Deflater();
    d.setInput(in);
    d.finish();
    byte[] buf = new byte[in.length + 64];
    int n = d.deflate(buf);
    d.end();
    return Arrays.copyOf(buf, n);
  }
}
