package io.symbolicate.connectors.loader.nativecode;

import io.symbolicate.connectors.loader.LoadPacer;
import io.symbolicate.connectors.loader.TableConverter.MalformedSymbolsException;
import io.symbolicate.symbols.dumpsyms.DumpSyms;
import io.symbolicate.symbols.dumpsyms.DumpSymsException;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipInputStream;

/**
 * A native module's table from its debug files (ELF, Mach-O, a dSYM zip) with our {@code
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

  /** Whether a file starting so is one this converter reads. */
  static boolean isDebugFile(byte[] head) {
    return isElf(head) || isMachO(head) || isZip(head);
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
      Path primary = file;
      Path debugFile = null;
      if (executable != null) {
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
