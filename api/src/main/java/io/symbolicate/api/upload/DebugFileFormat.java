package io.symbolicate.api.upload;

import io.symbolicate.symbols.id.DebugFileLayout;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.id.SymbolLayout;
import io.symbolicate.symbols.objects.ObjectFeature;
import io.symbolicate.symbols.objects.ObjectFile;
import io.symbolicate.symbols.objects.ObjectFiles;
import io.symbolicate.symbols.objects.ObjectFormatException;
import io.symbolicate.symbols.objects.ObjectIdentity;
import io.symbolicate.symbols.objects.ObjectKind;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Native debug files as compilers write them (docs/api/symbols-debugfile.md), told by their magic:
 * an ELF file (executable, shared object, split-off {@code .debug}), a Mach-O file (thin, or fat:
 * one object per slice, each stored as a thin file), a Windows PDB (7.0) or PE image (an {@code
 * .exe} or {@code .dll}), or a zip of such files (a dSYM bundle, or
 * several files as sentry-cli's difs upload sends them; entries that are not object files, such
 * as a dSYM's {@code Info.plist}, are skipped), or a .NET Portable PDB ({@link PortablePdbUploads}:
 * stored under its own name and id, announced as a {@code dotnet} module; an assembly that embeds
 * one is stored under that PDB's name and id too). Each object's container and identity are read
 * here ({@link ObjectFiles}); its DWARF is the loader's to convert (a bad one: {@code malformed}).
 *
 * <p>Stored in the {@link DebugFileLayout#NATIVE native} layout under the name the client gives
 * (the URL's or {@code DebugFile}), or the zip entry's (a split-off ELF {@code X.debug} as
 * {@code X}, the module it belongs to): debug info at {@code <name>/<DEBUG_ID>/<name>}, an
 * executable or library that has a code id also at {@code <name>/<CODE_ID>/<name>} (only there
 * when it has no DWARF, so that it never replaces its own debug file; a PE image, whose PDB has
 * another name, under both). With an expected id (the
 * URL's), only the objects whose debug id or code id it is are stored; none is a 400 naming both.
 */
public final class DebugFileFormat implements UploadFormat {
  private static final Logger log = LoggerFactory.getLogger(DebugFileFormat.class);

  /** Most entries of a zip looked at (as the Breakpad route). */
  static final int MAX_ZIP_ENTRIES = BreakpadFormat.MAX_ZIP_ENTRIES;

  /** Most objects (files, fat slices) one upload stores. */
  static final int MAX_OBJECTS = 1000;

  private final String name;
  private final String expectedId;
  private final long maxFileBytes;

  /**
   * @param name the debug file's name (null: a zip's entries name their objects)
   * @param expectedId the debug id or code id the objects must have (null: any)
   * @param maxFileBytes the bound of the bytes one upload extracts (zip entries, fat slices)
   */
  DebugFileFormat(String name, String expectedId, long maxFileBytes) throws UploadError {
    try {
      this.name = name == null ? null : DebugIdentifiers.requireFileName(name);
      this.expectedId = expectedId == null ? null : DebugIdentifiers.normalizeDebugId(expectedId);
    } catch (IllegalArgumentException e) {
      throw UploadError.badRequest(e.getMessage());
    }
    this.maxFileBytes = maxFileBytes;
  }

  /** A file of the upload, extracted or as sent, with the name it came under. */
  private record Named(String name, Path file, String what) {}

  /** One object (a file, or a fat file's slice) and who it is. */
  private record Found(String name, Path file, ObjectIdentity id, String what) {}

  /** Bytes the upload may still extract: zip entries and fat slices together. */
  private final class Budget {
    private long left = maxFileBytes;

    void take(long n, String what) throws UploadError {
      left -= n;
      if (left < 0) {
        throw new UploadError(
            413,
            UploadError.TOO_LARGE,
            what + ": the upload's debug files expand to more than " + maxFileBytes + " bytes");
      }
    }
  }

  @Override
  public String stagingName() {
    return "debugfile";
  }

  @Override
  public List<Placement> place(String scope, String id, Path file, Path work)
      throws UploadError, IOException {
    if (SourceBundleUpload.isSourceBundle(file)) {
      return SourceBundleUpload.place(scope, file, name, expectedId);
    }
    Budget budget = new Budget();
    List<Named> files;
    if (isZip(file)) {
      files = zip(file, work, budget);
    } else {
      if (name == null) {
        throw UploadError.badRequest(
            "a single debug file needs its name (the DebugFile header, or the URL's): "
                + "the body does not carry it");
      }
      files = List.of(new Named(name, file, "the file"));
    }
    List<Found> objects = new ArrayList<>();
    // .NET: Portable PDBs, and the PDBs assemblies embed (after the standalone ones: those win)
    List<PortablePdbUploads.Found> dotnet = new ArrayList<>();
    for (Named f : files) {
      if (PortablePdbUploads.isPortablePdb(f.file())) {
        checkCount(objects.size() + dotnet.size() + 1);
        dotnet.add(PortablePdbUploads.portablePdb(scope, f.name(), f.file(), f.what()));
      } else {
        objects.addAll(objects(f, work, budget, objects.size() + dotnet.size()));
      }
    }
    for (Found o : objects) {
      if ("pe".equals(o.id().fileFormat())) {
        PortablePdbUploads.embedded(scope, o.name(), o.file(), o.what()).ifPresent(dotnet::add);
      }
    }
    if (expectedId != null) {
      List<Found> matching = objects.stream().filter(o -> matches(o.id())).toList();
      List<PortablePdbUploads.Found> matchingPdbs =
          dotnet.stream().filter(d -> expectedId.equals(d.debugId())).toList();
      if (matching.isEmpty() && matchingPdbs.isEmpty()) {
        List<String> all = new ArrayList<>();
        objects.forEach(o -> all.add(ids(o)));
        dotnet.forEach(d -> all.add("Portable PDB: debug id " + d.debugId()));
        throw UploadError.invalidFile(
            "the URL names debug id "
                + expectedId
                + " but the file is "
                + String.join("; ", all)
                + ": nothing stored");
      }
      objects = matching;
      dotnet = matchingPdbs;
    }
    List<Placement> out = new ArrayList<>(placements(scope, objects));
    Map<String, Placement> pdbs = new LinkedHashMap<>();
    for (PortablePdbUploads.Found d : dotnet) {
      pdbs.putIfAbsent(d.placement().key(), d.placement());
    }
    out.addAll(pdbs.values());
    return out;
  }

  private boolean matches(ObjectIdentity id) {
    return expectedId.equals(id.debugId())
        || id.codeId() != null && expectedId.equals(id.codeId().toUpperCase(Locale.ROOT));
  }

  private static String ids(Found o) {
    ObjectIdentity id = o.id();
    return o.what()
        + ": debug id "
        + id.debugId()
        + (id.codeId() == null ? "" : ", code id " + id.codeId())
        + " ("
        + id.arch()
        + ")";
  }

  /** The keys of each object, a split-off debug file winning over an executable's copy. */
  private static List<Placement> placements(String scope, List<Found> objects) throws UploadError {
    String prefix = SymbolLayout.scopePrefix(scope);
    Map<String, Found> byKey = new LinkedHashMap<>();
    for (Found o : objects) {
      ObjectIdentity id = o.id();
      DebugFileLayout.Query q =
          new DebugFileLayout.Query(o.name(), id.debugId(), o.name(), id.codeId());
      boolean program = id.kind() == ObjectKind.EXECUTABLE || id.kind() == ObjectKind.LIBRARY;
      List<String> keys = new ArrayList<>();
      boolean pe = "pe".equals(id.fileFormat());
      if (!program
          || id.codeId() == null
          || id.features().contains(ObjectFeature.DEBUG)
          || pe && !isZeros(id.debugId())) {
        keys.addAll(DebugFileLayout.NATIVE.keys(q, DebugFileLayout.Kind.DEBUG_INFO));
      }
      if (program && id.codeId() != null) {
        keys.addAll(DebugFileLayout.NATIVE.keys(q, DebugFileLayout.Kind.EXECUTABLE));
      }
      for (String key : keys) {
        Found other = byKey.get(key);
        if (other == null || rank(o) > rank(other)) {
          byKey.put(key, o);
        } else if (rank(o) == rank(other)) {
          throw UploadError.invalidFile(
              o.what() + " and " + other.what() + " both are " + key + " (same name and id)");
        }
      }
    }
    List<Placement> out = new ArrayList<>();
    for (Map.Entry<String, Found> e : byKey.entrySet()) {
      Found o = e.getValue();
      DebugIdentifiers.Native module = DebugIdentifiers.nativeModule(o.name(), o.id().debugId());
      out.add(
          new Placement(
              prefix + e.getKey(), o.file(), new ModuleRef(scope, TableKind.NATIVE, module.key())));
    }
    return out;
  }

  /** Which of two files of one key to keep: a debug companion, then one with DWARF. */
  private static int rank(Found o) {
    if (o.id().kind() == ObjectKind.DEBUG) {
      return 2;
    }
    return o.id().features().contains(ObjectFeature.DEBUG) ? 1 : 0;
  }

  /** The objects of one file: itself, or each slice of a fat file as a thin file in {@code work}. */
  private List<Found> objects(Named f, Path work, Budget budget, int before)
      throws UploadError, IOException {
    try {
      List<ObjectFiles.FatSlice> slices = ObjectFiles.fatSlices(f.file());
      if (slices.isEmpty()) {
        checkCount(before + 1);
        return List.of(found(f.name(), f.file(), f.what()));
      }
      checkCount(before + slices.size());
      List<Found> out = new ArrayList<>();
      for (ObjectFiles.FatSlice s : slices) {
        String what = f.what() + " (" + s.arch() + " slice)";
        budget.take(s.size(), what);
        Path thin = work.resolve("slice-" + (before + out.size()));
        copyRange(f.file(), s.offset(), s.size(), thin);
        out.add(found(f.name(), thin, what));
      }
      return out;
    } catch (ObjectFormatException e) {
      // the readers name the file: here, a temporary one
      String m = e.getMessage();
      String named = f.file().getFileName() + ": ";
      m = m.startsWith(named) ? m.substring(named.length()) : m;
      throw UploadError.invalidFile(
          f.what()
              + (isObjectFile(f.file())
                  ? " is not a valid object file: "
                  : " is not an ELF, Mach-O, PE or PDB file: ")
              + m);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    } catch (RuntimeException e) {
      // a reader that failed on the client's bytes without saying why: still the file's fault
      // (the readers' own fuzz targets find these), never a 500
      log.warn("reading {} failed on a bad file", f.what(), e);
      throw UploadError.invalidFile(f.what() + " is not a valid object file: " + e);
    }
  }

  private static void checkCount(int n) throws UploadError {
    if (n > MAX_OBJECTS) {
      throw UploadError.invalidFile(
          "the upload holds more than " + MAX_OBJECTS + " object files (files and fat slices)");
    }
  }

  /** Opens one thin object and names it; a dump or an unlinked object is refused. */
  private Found found(String entryName, Path file, String what) throws UploadError, IOException {
    ObjectFile object = ObjectFiles.open(file, null);
    ObjectIdentity id = object.identity();
    if (id.kind() == ObjectKind.DUMP) {
      throw UploadError.invalidFile(what + " is a core dump, not a debug file");
    }
    if (id.kind() == ObjectKind.RELOCATABLE) {
      throw UploadError.invalidFile(
          what + " is an object file before linking (relocatable): upload the linked file");
    }
    if (isZeros(id.debugId()) && (id.codeId() == null || !"pe".equals(id.fileFormat()))) {
      // a PE image without a CodeView record (an export-only DLL) is still known by its code id
      throw UploadError.invalidFile(
          what + " has no identity: no build id, UUID or code to hash (debug id all zeros)");
    }
    String n = entryName;
    if (name == null
        && id.kind() == ObjectKind.DEBUG
        && "elf".equals(id.fileFormat())
        && n.endsWith(".debug")
        && n.length() > ".debug".length()) {
      n = n.substring(0, n.length() - ".debug".length());
    }
    return new Found(n, file, id, what);
  }

  private static boolean isZeros(String id) {
    return id.chars().allMatch(c -> c == '0');
  }

  /** Whether a file starting so is one of ours: an object file, a PDB or a PE image. */
  static boolean isDebugFile(byte[] head) {
    return ObjectFiles.isObjectFile(head)
        || PortablePdbUploads.isPortablePdb(head)
        || head.length >= 8
            && new String(head, 0, 8, StandardCharsets.ISO_8859_1).equals("Microsof")
        || head.length >= 2 && head[0] == 'M' && head[1] == 'Z';
  }

  /** Extracts the zip's object files (told by magic; other entries skipped) into {@code work}. */
  private List<Named> zip(Path file, Path work, Budget budget) throws UploadError, IOException {
    List<Named> out = new ArrayList<>();
    try (ZipFile zip = new ZipFile(file.toFile())) {
      int n = 0;
      for (Enumeration<? extends ZipEntry> e = zip.entries(); e.hasMoreElements(); ) {
        ZipEntry entry = e.nextElement();
        if (++n > MAX_ZIP_ENTRIES) {
          throw UploadError.invalidFile("the zip has more than " + MAX_ZIP_ENTRIES + " entries");
        }
        if (entry.isDirectory()) {
          continue;
        }
        String what = "zip entry " + printable(entry.getName());
        Path extracted = work.resolve("entry-" + out.size());
        try (InputStream in = zip.getInputStream(entry)) {
          byte[] head = in.readNBytes(8);
          if (!isDebugFile(head)) {
            continue;
          }
          checkCount(out.size() + 1);
          try (OutputStream o = Files.newOutputStream(extracted)) {
            budget.take(head.length, what);
            o.write(head);
            copyBounded(in, o, what, budget);
          }
        }
        out.add(new Named(entryName(entry.getName(), what), extracted, what));
      }
    } catch (ZipException | IllegalArgumentException e) {
      // IllegalArgumentException: an entry name that is not valid in the zip's charset
      throw UploadError.invalidFile("not a valid zip: " + e.getMessage());
    } catch (EOFException e) {
      throw UploadError.invalidFile(
          "not a valid zip: an entry is cut short by the end of the file");
    }
    if (out.isEmpty()) {
      throw UploadError.invalidFile(
          "the zip holds no ELF, Mach-O, PE or PDB file (nor a Portable PDB)");
    }
    return out;
  }

  /** The name an entry's object is stored under: the client's, or the entry's last segment. */
  private String entryName(String path, String what) throws UploadError {
    if (name != null) {
      return name;
    }
    String base = path.substring(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
    try {
      return DebugIdentifiers.requireFileName(base);
    } catch (IllegalArgumentException e) {
      throw UploadError.invalidFile(what + ": " + e.getMessage());
    }
  }

  /** Copies an entry within the budget, whatever size its header claims. */
  private static void copyBounded(InputStream in, OutputStream out, String what, Budget budget)
      throws UploadError, IOException {
    byte[] buf = new byte[64 << 10];
    for (int r; (r = in.read(buf)) > 0; ) {
      budget.take(r, what);
      out.write(buf, 0, r);
    }
  }

  private static void copyRange(Path from, long offset, long size, Path to) throws IOException {
    try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ);
        FileChannel out =
            FileChannel.open(to, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      long done = 0;
      while (done < size) {
        long n = in.transferTo(offset + done, size - done, out);
        if (n <= 0) {
          throw new IOException("could not copy a fat slice: " + from + " ended early");
        }
        done += n;
      }
    }
  }

  private static boolean isObjectFile(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return isDebugFile(in.readNBytes(8));
    }
  }

  private static boolean isZip(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] m = in.readNBytes(4);
      return m.length == 4 && m[0] == 'P' && m[1] == 'K' && m[2] == 3 && m[3] == 4;
    }
  }

  private static String printable(String s) {
    String cut = s.length() > 200 ? s.substring(0, 200) + "..." : s;
    return "'" + cut.replaceAll("\\p{Cntrl}", "?") + "'";
  }
}
