package io.symbolicate.api.upload;

import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.id.SymbolLayout;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongUnaryOperator;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

/**
 * A Breakpad {@code .sym} file, or a zip of them in Mozilla's layout
 * ({@code <debug_file>/<DEBUG_ID>/<name>.sym}, what {@code dump_syms}' symbol store and
 * Mozilla's {@code upload_symbols} use). A file is placed by its {@code MODULE} line (the debug
 * file and id it names: {@link SymbolLayout#breakpad}); in a zip every {@code .sym} entry's path
 * must be that key. Entries of other names are skipped. What the {@code MODULE} line does not
 * show (a bad FUNC line) the loader finds (a {@code malformed} module).
 */
public final class BreakpadFormat implements UploadFormat {
  /** Longest {@code MODULE} line read. */
  static final int MAX_MODULE_LINE = 4096;

  /** Most entries of a zip looked at. */
  static final int MAX_ZIP_ENTRIES = 100_000;

  private final long maxFileBytes;
  private final LongUnaryOperator maxExpandedBytes;

  /** @param maxFileBytes the bound of one extracted file (the loader's {@code symbols.max.file.bytes}) */
  public BreakpadFormat(long maxFileBytes) {
    this(maxFileBytes, UploadLimits.defaults()::maxExpandedBytes);
  }

  /**
   * @param maxExpandedBytes what a zip of so many bytes may extract to, all entries together
   *     ({@link UploadLimits#maxExpandedBytes}): extraction stops there (413)
   */
  public BreakpadFormat(long maxFileBytes, LongUnaryOperator maxExpandedBytes) {
    this.maxFileBytes = maxFileBytes;
    this.maxExpandedBytes = maxExpandedBytes;
  }

  @Override
  public String stagingName() {
    return "breakpad";
  }

  @Override
  public List<Placement> place(String scope, String id, Path file, Path work)
      throws UploadError, IOException {
    byte[] magic = new byte[4];
    try (InputStream in = Files.newInputStream(file)) {
      if (in.readNBytes(magic, 0, 4) == 4
          && magic[0] == 'P'
          && magic[1] == 'K'
          && magic[2] == 3
          && magic[3] == 4) {
        return zip(scope, file, work);
      }
    }
    DebugIdentifiers.Native module;
    try (InputStream in = Files.newInputStream(file)) {
      module = moduleLine(in, "the file");
    }
    return List.of(placement(scope, module, file));
  }

  private static Placement placement(String scope, DebugIdentifiers.Native module, Path file) {
    return new Placement(
        SymbolLayout.scopePrefix(scope) + SymbolLayout.breakpad(module).get(0),
        file,
        new ModuleRef(scope, TableKind.NATIVE, module.key()));
  }

  private List<Placement> zip(String scope, Path file, Path work) throws UploadError, IOException {
    long zipBytes = Files.size(file);
    long[] left = {maxExpandedBytes.applyAsLong(zipBytes)};
    List<Placement> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    try (ZipFile zip = new ZipFile(file.toFile())) {
      int n = 0;
      for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
        ZipEntry entry = e.nextElement();
        if (++n > MAX_ZIP_ENTRIES) {
          throw UploadError.invalidFile("the zip has more than " + MAX_ZIP_ENTRIES + " entries");
        }
        String name = entry.getName();
        if (entry.isDirectory() || !name.endsWith(".sym")) {
          continue;
        }
        String what = "zip entry " + printable(name);
        Path extracted = work.resolve("entry-" + out.size() + ".sym");
        try (InputStream in = zip.getInputStream(entry);
            OutputStream o = Files.newOutputStream(extracted)) {
          copyBounded(in, o, what, left, zipBytes);
        }
        DebugIdentifiers.Native module;
        try (InputStream in = Files.newInputStream(extracted)) {
          module = moduleLine(in, what);
        }
        String expected = SymbolLayout.breakpad(module).get(0);
        if (!expected.equals(name)) {
          throw UploadError.invalidFile(
              what + " is not where its MODULE line puts it (" + expected + ")");
        }
        if (!seen.add(name)) {
          throw UploadError.invalidFile(what + " is in the zip twice");
        }
        out.add(placement(scope, module, extracted));
      }
    } catch (ZipException e) {
      throw UploadError.invalidFile("not a valid zip: " + e.getMessage());
    } catch (EOFException e) {
      // an entry whose data runs past the end of the file (a fuzz finding: it was a 500)
      throw UploadError.invalidFile(
          "not a valid zip: an entry is cut short by the end of the file");
    }
    if (out.isEmpty()) {
      throw UploadError.invalidFile("the zip holds no .sym file");
    }
    return out;
  }

  /**
   * Copies an entry, refusing one larger than the bound whatever size its header claims, and
   * stopping once the zip's entries together pass what it may expand to ({@code left}).
   */
  private void copyBounded(
      InputStream in, OutputStream out, String what, long[] left, long zipBytes)
      throws UploadError, IOException {
    byte[] buf = new byte[64 << 10];
    long total = 0;
    for (int r; (r = in.read(buf)) > 0; ) {
      total += r;
      if (total > maxFileBytes) {
        throw new UploadError(
            413, UploadError.TOO_LARGE, what + " expands to more than " + maxFileBytes + " bytes");
      }
      left[0] -= r;
      if (left[0] < 0) {
        throw new UploadError(
            413,
            UploadError.TOO_LARGE,
            "the zip of "
                + zipBytes
                + " bytes expands to more than "
                + maxExpandedBytes.applyAsLong(zipBytes)
                + " bytes (upload.max.expansion.ratio)");
      }
      out.write(buf, 0, r);
    }
  }

  /** The module a {@code .sym} names on its first line: {@code MODULE <os> <arch> <id> <file>}. */
  static DebugIdentifiers.Native moduleLine(InputStream in, String what)
      throws UploadError, IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int c; (c = in.read()) >= 0 && c != '\n'; ) {
      if (line.size() >= MAX_MODULE_LINE) {
        throw UploadError.invalidFile(
            what + ": the first line is longer than " + MAX_MODULE_LINE + " bytes");
      }
      line.write(c);
    }
    String s = line.toString(StandardCharsets.UTF_8).strip();
    String[] t = s.split(" ", 5);
    if (t.length != 5 || !t[0].equals("MODULE")) {
      throw UploadError.invalidFile(
          what
              + " is not a Breakpad symbol file: it does not start with "
              + "'MODULE <os> <arch> <debug id> <debug file>'");
    }
    try {
      return DebugIdentifiers.nativeModule(t[4].strip(), t[3]);
    } catch (IllegalArgumentException e) {
      throw UploadError.invalidFile(what + ": invalid MODULE line: " + e.getMessage());
    }
  }

  private static String printable(String s) {
    String cut = s.length() > 200 ? s.substring(0, 200) + "..." : s;
    return "'" + cut.replaceAll("\\p{Cntrl}", "?") + "'";
  }
}
