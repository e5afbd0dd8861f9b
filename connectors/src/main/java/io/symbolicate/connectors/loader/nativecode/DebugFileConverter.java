package io.symbolicate.connectors.loader.nativecode;

import io.symbolicate.connectors.loader.LoadPacer;
import io.symbolicate.connectors.loader.TableConverter.MalformedSymbolsException;
import io.symbolicate.symbols.dumpsyms.DumpSyms;
import io.symbolicate.symbols.dumpsyms.DumpSymsException;
import io.symbolicate.symbols.io.CabFile;
import io.symbolicate.symbols.io.CabFormatException;
import io.symbolicate.symbols.io.Sizes;
import io.symbolicate.symbols.nativecode.NativeHeader;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.nativecode.NativeTableBuilder;
import io.symbolicate.symbols.nativecode.SymFormatException;
import io.symbolicate.symbols.objects.ObjectFiles;
import io.symbolicate.symbols.objects.ObjectFormatException;
import io.symbolicate.symbols.table.TablePage;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipInputStream;

/**
 * A native module's table from its debug files (ELF, Mach-O, a dSYM zip, a PDB with its PE
 * image; any of them CAB-compressed as a symbol store keeps them) with our {@code
 * dump_syms} ({@link DumpSyms}), for the loader. The fetched file streams to a temporary file
 * (debug files run to hundreds of MB), which the readers memory-map: the heap holds only the
 * sections stored compressed (inflated once), the builder's index (at most a quarter of the max
 * heap, {@link NativeTableBuilder}) and the table's pages (at most a quarter, as for a {@code
 * .sym}); the file itself is on disk, up to {@code symbols.max.file.bytes}.
 */
final class DebugFileConverter {
  private DebugFileConverter() {}

  /** The first bytes of a zip archive (a dSYM bundle uploaded as a zip). */
  static boolean isZip(byte[] h) {
    return h.length >= 4 && h[0] == 'P' && h[1] == 'K' && h[2] == 3 && h[3] == 4;
  }

  static boolean isElf(byte[] h) {
    return h.length >= 4 && h[0] == 0x7f && h[1] == 'E' && h[2] == 'L' && h[3] == 'F';
  }

  static boolean isMachO(byte[] h) {
    if (h.length < 4) {
      return false;
    }
    int be = ((h[0] & 0xff) << 24) | ((h[1] & 0xff) << 16) | ((h[2] & 0xff) << 8) | (h[3] & 0xff);
    int le = Integer.reverseBytes(be);
    return be == 0xfeedface
        || be == 0xfeedfacf
        || le == 0xfeedface
        || le == 0xfeedfacf
        || be == 0xcafebabe
        || be == 0xcafebabf;
  }

  /** A PDB (MSF 7.00; an older one starts the same and is refused by the reader with why). */
  static boolean isPdb(byte[] h) {
    return h.length >= 8 && new String(h, 0, 8, StandardCharsets.ISO_8859_1).equals("Microsof");
  }

  /** A PE image (a DOS header first). */
  static boolean isPe(byte[] h) {
    return h.length >= 2 && h[0] == 'M' && h[1] == 'Z';
  }

  /** Whether a file starting so is one this converter reads. */
  static boolean isDebugFile(byte[] head) {
    return isElf(head)
        || isMachO(head)
        || isZip(head)
        || isPdb(head)
        || isPe(head)
        || CabFile.isCab(head);
  }

  /**
   * Converts the debug file in {@code in} (plain bytes, capped at {@code maxInputBytes} by the
   * caller), with the executable {@code executable} beside it (or null). {@code name} is the
   * module's file name (its table's MODULE name), {@code debugId} the id it was asked for (a
   * file with another one is malformed: it is not the module's).
   */
  static NativeTable convert(
      InputStream in,
      Path executable,
      String name,
      String debugId,
      long maxInputBytes,
      LoadPacer pacer,
      long maxTableBytes)
      throws IOException, MalformedSymbolsException {
    Path dir = Files.createTempDirectory("symbolicate-debug-");
    try {
      Path file = dir.resolve(name);
      spool(in, file, maxInputBytes);
      if (executable != null && CabFile.isCab(head(executable))) {
        Path exe = dir.resolve("exe").resolve(executable.getFileName().toString());
        Files.createDirectories(exe.getParent());
        expandCab(executable, exe, exe.getFileName().toString(), maxInputBytes);
        executable = exe;
      }
      Path primary = file;
      Path debugFile = null;
      if (isPdb(head(file))) {
        debugFile = executable; // a PDB reads its image's code id from the PE beside it
      } else if (executable != null) {
        primary = executable;
        debugFile = file;
      }
      String arch = chooseArch(debugFile != null ? debugFile : primary, debugId);
      return dump(primary, debugFile, arch, debugId, pacer, maxTableBytes);
    } finally {
      deleteTree(dir);
    }
  }

  /** The body to {@code file}: as it is, or the debug file a zip holds (a dSYM bundle's). */
  private static void spool(InputStream in, Path file, long max)
      throws IOException, MalformedSymbolsException {
    BufferedInputStream b = new BufferedInputStream(in, 1 << 16);
    b.mark(4);
    byte[] head = b.readNBytes(4);
    b.reset();
    if (CabFile.isCab(head)) {
      Path cab = file.resolveSibling(file.getFileName() + ".cab");
      try (OutputStream out = Files.newOutputStream(cab)) {
        b.transferTo(out); // the caller's stream is capped at max
      }
      try {
        expandCab(cab, file, file.getFileName().toString(), max);
      } finally {
        Files.deleteIfExists(cab);
      }
      return;
    }
    if (!isZip(head)) {
      try (OutputStream out = Files.newOutputStream(file)) {
        b.transferTo(out); // the caller's stream is capped at max
      }
      return;
    }
    try (ZipInputStream zip = new ZipInputStream(b)) {
      long total = 0;
      ZipEntry e;
      while ((e = zip.getNextEntry()) != null) {
        if (e.isDirectory() || e.getName().contains("__MACOSX/")) {
          continue;
        }
        BufferedInputStream entry = new BufferedInputStream(zip, 1 << 16);
        entry.mark(4);
        byte[] h = entry.readNBytes(4);
        entry.reset();
        if (isElf(h) || isMachO(h)) {
          try (OutputStream out = Files.newOutputStream(file)) {
            long n = copy(entry, out, max - total);
            if (n < 0) {
              throw new MalformedSymbolsException(
                  "the zip's debug file " + e.getName() + " exceeds " + Sizes.of(max), null);
            }
          }
          return;
        }
        total += entry.transferTo(OutputStream.nullOutputStream());
        if (total > max) {
          throw new MalformedSymbolsException("the zip exceeds " + Sizes.of(max), null);
        }
      }
    } catch (ZipException e) {
      throw new MalformedSymbolsException("not a readable zip: " + e.getMessage(), e);
    }
    throw new MalformedSymbolsException(
        "the zip holds no ELF or Mach-O file (a dSYM's Contents/Resources/DWARF/...)", null);
  }

  /**
   * The file a symbol store's cabinet ({@code name.pd_}) holds, to {@code to}: the one named as
   * the module ignoring case, else the first; at most {@code max} bytes.
   */
  static void expandCab(Path cab, Path to, String name, long max)
      throws IOException, MalformedSymbolsException {
    try (FileChannel ch = FileChannel.open(cab, StandardOpenOption.READ)) {
      if (ch.size() > Integer.MAX_VALUE) {
        throw new MalformedSymbolsException("a cabinet over 2 GiB is not read", null);
      }
      CabFile c = CabFile.parse(ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size()));
      CabFile.Entry entry =
          c.files().stream()
              .filter(e -> e.name().equalsIgnoreCase(name))
              .findFirst()
              .orElse(c.files().get(0));
      try (OutputStream out = Files.newOutputStream(to)) {
        c.extract(entry, out, max);
      }
    } catch (CabFormatException e) {
      throw new MalformedSymbolsException("cabinet " + name + ": " + e.getMessage(), e);
    }
  }

  private static byte[] head(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return in.readNBytes(8);
    }
  }

  private static long copy(InputStream in, OutputStream out, long max) throws IOException {
    byte[] buf = new byte[1 << 16];
    long n = 0;
    int r;
    while ((r = in.read(buf)) >= 0) {
      n += r;
      if (n > max) {
        return -1;
      }
      out.write(buf, 0, r);
    }
    return n;
  }

  /**
   * The slice of a fat Mach-O file whose identity is the module's (null: a thin file, or none
   * matches, left to the reader's error).
   */
  private static String chooseArch(Path file, String debugId) throws MalformedSymbolsException {
    try {
      List<String> archs = ObjectFiles.architectures(file);
      if (archs.size() <= 1) {
        return null;
      }
      for (String a : archs) {
        if (ObjectFiles.open(file, a).identity().debugId().equalsIgnoreCase(debugId)) {
          return a;
        }
      }
      throw new MalformedSymbolsException(
          "no slice of the fat Mach-O file (" + String.join(", ", archs) + ") is " + debugId, null);
    } catch (ObjectFormatException | IOException e) {
      throw new MalformedSymbolsException(e.getMessage(), e);
    }
  }

  private static NativeTable dump(
      Path primary,
      Path debugFile,
      String arch,
      String debugId,
      LoadPacer pacer,
      long maxTableBytes)
      throws IOException, MalformedSymbolsException {
    NativeSymbols.Options options = NativeSymbols.Options.defaults();
    List<TablePage> pages = new ArrayList<>();
    try (NativeTableBuilder builder =
        new NativeTableBuilder(options.pageTargetBytes(), options.codec())) {
      DumpSyms.Report report =
          DumpSyms.dump(primary, new DumpSyms.Options(true, arch, debugFile), builder);
      String found = report.identity().debugId();
      if (debugId != null && !found.equalsIgnoreCase(debugId)) {
        throw new MalformedSymbolsException(
            "the file's debug id is " + found + ", not the module's " + debugId, null);
      }
      long size = Files.size(primary) + (debugFile == null ? 0 : Files.size(debugFile));
      NativeHeader header =
          builder.finish(NativeTableConverter.pageSink(pages, maxTableBytes, pacer), size);
      return new NativeTable(header, pages);
    } catch (DumpSymsException
        | NativeTableBuilder.IndexTooLargeException
        | SymFormatException
        | ObjectFormatException e) {
      throw new MalformedSymbolsException(e.getMessage(), e);
    } catch (InterruptedIOException e) {
      throw e;
    } catch (IOException e) {
      // the files are local and whole: a read past the end is the file's fault, not the source's
      throw new MalformedSymbolsException("reading the debug file: " + e, e);
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException ignored) {
      // a temporary file left behind
    }
  }
}
