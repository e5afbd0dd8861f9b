package io.symbolicate.symbols.objects;

import io.symbolicate.symbols.pdb.MsfFile;
import io.symbolicate.symbols.pdb.PdbFile;
import io.symbolicate.symbols.pdb.PdbFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Opens an object file of any supported container, told by its magic bytes: ELF, Mach-O (thin or
 * fat), PE (Windows), PDB 7.0, a dSYM bundle directory or a zip holding one. Anything else is refused with an {@link
 * ObjectFormatException} naming what it is.
 */
public final class ObjectFiles {
  /** Largest Mach-O we unpack from a dSYM zip into the heap. */
  static final long MAX_ZIPPED_BYTES = 1L << 30;

  private ObjectFiles() {}

  /** Opens {@code file}; {@code arch} chooses a fat file's slice (null: it must have one). */
  public static ObjectFile open(Path file, String arch) throws IOException {
    if (Files.isDirectory(file)) {
      return open(dsymDwarfFile(file), arch);
    }
    ObjectBytes bytes = ObjectBytes.map(file);
    String name = file.getFileName().toString();
    if (isZip(bytes)) {
      return fromZip(file, arch);
    }
    return open(name, bytes, arch);
  }

  /** Opens an object file held in memory. */
  public static ObjectFile open(byte[] data, String name, String arch) {
    return open(name, ObjectBytes.of(data), arch);
  }

  /** The architectures of a file: one for ELF and thin Mach-O, each slice's for a fat file. */
  public static List<String> architectures(Path file) throws IOException {
    if (Files.isDirectory(file)) {
      return architectures(dsymDwarfFile(file));
    }
    ObjectBytes bytes = ObjectBytes.map(file);
    if (FatFile.isFat(bytes)) {
      return FatFile.slices(bytes).stream().map(FatFile.Slice::arch).toList();
    }
    return List.of(open(file, null).identity().arch());
  }

  /** A fat Mach-O file's slice: its architecture and where its bytes lie in the file. */
  public record FatSlice(String arch, long offset, long size) {}

  /**
   * The slices of a fat Mach-O file, each checked to lie inside it (an upload stores each as a
   * thin file of its own); empty for any other file.
   */
  public static List<FatSlice> fatSlices(Path file) throws IOException {
    ObjectBytes bytes = ObjectBytes.map(file);
    if (!FatFile.isFat(bytes)) {
      return List.of();
    }
    return FatFile.slices(bytes).stream()
        .map(s -> new FatSlice(s.arch(), s.offset(), s.size()))
        .toList();
  }

  /**
   * Whether a file's first bytes are those of a file {@link #open} reads as an object (ELF,
   * Mach-O, or a fat header with a plausible slice count; not a zip).
   */
  public static boolean isObjectFile(byte[] head) {
    if (ElfFile.isElf(head)) {
      return true;
    }
    if (head.length < 8) {
      return false;
    }
    ByteBuffer h = ByteBuffer.wrap(head).order(ByteOrder.BIG_ENDIAN);
    int magic = h.getInt(0);
    return MachOFile.isMachO(magic)
        || (magic == FatFile.FAT_MAGIC || magic == FatFile.FAT_MAGIC_64)
            && Integer.compareUnsigned(h.getInt(4), FatFile.MAX_SLICES) < 0;
  }

  private static ObjectFile open(String name, ObjectBytes bytes, String arch) {
    byte[] head = head(bytes);
    if (ElfFile.isElf(head)) {
      ObjectFile f = new ObjectFile(name, ElfFile.parse(bytes));
      if (arch != null && !arch.equals(f.identity().arch())) {
        throw new ObjectFormatException(
            name + " is an ELF file for " + f.identity().arch() + ", not " + arch);
      }
      return f;
    }
    int magic = head.length >= 4 ? ByteBuffer.wrap(head).order(ByteOrder.BIG_ENDIAN).getInt(0) : 0;
    if (MachOFile.isMachO(magic) || FatFile.isFat(bytes)) {
      return new ObjectFile(name, MachOFile.select(bytes, arch));
    }
    if (MsfFile.isMsf(head)) {
      try {
        ByteBuffer all = bytes.slice(0, bytes.size(), ByteOrder.LITTLE_ENDIAN, "PDB file");
        return new ObjectFile(name, PdbFile.of(MsfFile.of(all)));
      } catch (PdbFormatException e) {
        throw new ObjectFormatException(name + ": " + e.getMessage(), e);
      }
    }
    if (PeFile.isPe(head)) {
      ObjectFile f = new ObjectFile(name, new PeFile(bytes));
      if (arch != null && !arch.equals(f.identity().arch())) {
        throw new ObjectFormatException(
            name + " is a PE file for " + f.identity().arch() + ", not " + arch);
      }
      return f;
    }
    throw new ObjectFormatException(name + ": " + describe(head));
  }

  /** What a file that is none of the readable formats is, for the error. */
  static String describe(byte[] head) {
    String text = new String(head, StandardCharsets.ISO_8859_1);
    if (text.startsWith("Microsoft C/C++ program database 2.00")) {
      return "a PDB 2.0 file: only PDB 7.0 (MSF 7.00) is read";
    }
    if (text.startsWith("BSJB")) {
      return "a Portable PDB file: not supported here, only ELF, Mach-O, PE and PDB 7.0";
    }
    if (text.startsWith("\0asm")) {
      return "a WebAssembly file: not supported here, only ELF, Mach-O, PE and PDB 7.0";
    }
    if (text.startsWith("MODULE ")) {
      return "a Breakpad .sym file, not an object file";
    }
    if (text.startsWith("\u001f\u008b")) {
      return "a gzip file: decompress it first";
    }
    if (text.startsWith("!<arch>")) {
      return "an ar archive (static library): not supported, extract its objects";
    }
    if (text.startsWith("\u00ca\u00fe\u00ba\u00be")) {
      return "a Java class file, not an object file";
    }
    if (head.length < 4) {
      return "too short (" + head.length + " bytes) to be an object file";
    }
    StringBuilder hex = new StringBuilder();
    for (int i = 0; i < Math.min(8, head.length); i++) {
      hex.append(String.format("%02x", head[i] & 0xff));
    }
    return "not an ELF or Mach-O file (starts with " + hex + ")";
  }

  private static byte[] head(ObjectBytes bytes) {
    int n = (int) Math.min(32, bytes.size());
    byte[] head = new byte[n];
    bytes.slice(0, n, ByteOrder.BIG_ENDIAN, "file head").get(head);
    return head;
  }

  private static boolean isZip(ObjectBytes bytes) {
    byte[] h = head(bytes);
    return h.length >= 4 && h[0] == 'P' && h[1] == 'K' && h[2] == 3 && h[3] == 4;
  }

  /**
   * The DWARF file of a dSYM bundle: {@code Contents/Resources/DWARF/<name>}, the one named
   * after the bundle ({@code X.dSYM}, {@code X.framework.dSYM}: {@code X}) or else the only one.
   */
  static Path dsymDwarfFile(Path bundle) throws IOException {
    Path dir = bundle.resolve("Contents").resolve("Resources").resolve("DWARF");
    if (!Files.isDirectory(dir)) {
      throw new ObjectFormatException(
          bundle + " is a directory but not a dSYM bundle (no Contents/Resources/DWARF)");
    }
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.filter(Files::isRegularFile).sorted().toList();
    }
    String base = bundle.getFileName().toString().replaceFirst("\\.dSYM$", "");
    base = base.replaceFirst("\\.(framework|app|appex|bundle|dylib|so)$", "");
    for (Path f : files) {
      if (f.getFileName().toString().equals(base)) {
        return f;
      }
    }
    if (files.size() == 1) {
      return files.get(0);
    }
    throw new ObjectFormatException(
        bundle + ": " + files.size() + " files in Contents/Resources/DWARF, none named " + base);
  }

  /** The Mach-O of the first dSYM in a zip (as uploads bring them). */
  private static ObjectFile fromZip(Path file, String arch) throws IOException {
    try (ZipFile zip = new ZipFile(file.toFile())) {
      List<ZipEntry> dwarf = new ArrayList<>();
      zip.stream()
          .filter(e -> !e.isDirectory() && e.getName().contains(".dSYM/Contents/Resources/DWARF/"))
          .forEach(dwarf::add);
      if (dwarf.isEmpty()) {
        throw new ObjectFormatException(file + ": a zip file without a dSYM in it");
      }
      ZipEntry entry = dwarf.get(0);
      byte[] data;
      try (InputStream in = zip.getInputStream(entry)) {
        data = in.readNBytes((int) Math.min(MAX_ZIPPED_BYTES, Integer.MAX_VALUE - 16) + 1);
      }
      if (data.length > MAX_ZIPPED_BYTES) {
        throw new ObjectFormatException(
            file + ": " + entry.getName() + " unpacks to more than " + MAX_ZIPPED_BYTES + " bytes");
      }
      String name = entry.getName().substring(entry.getName().lastIndexOf('/') + 1);
      return open(name, ObjectBytes.of(data), arch);
    }
  }
}
