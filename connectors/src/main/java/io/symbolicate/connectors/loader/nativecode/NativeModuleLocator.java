package io.symbolicate.connectors.loader.nativecode;

import io.symbolicate.connectors.loader.ModuleLocator;
import io.symbolicate.connectors.loader.SourceBundleFetch;
import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.connectors.source.FilePointer;
import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.connectors.source.SymbolSource;
import io.symbolicate.symbols.id.BuildIdKeys;
import io.symbolicate.symbols.id.DebugFileLayout;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.id.SymbolLayout;
import io.symbolicate.symbols.io.DebugFileInput;
import io.symbolicate.symbols.objects.ObjectFiles;
import io.symbolicate.symbols.symbfile.FileId;
import io.symbolicate.symbols.symbfile.SymbfileKeys;
import io.symbolicate.symbols.table.ModuleRef;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a native module's symbols live, tried in this order:
 *
 * <ol>
 *   <li>its Breakpad {@code .sym} in Mozilla's layout ({@code debug_file/DEBUG_ID/debug_file.sym},
 *       in every source; and {@code .../breakpad} in a source searched in the unified layout);
 *   <li>its debug files in the {@link DebugFileLayouts} of each source: the file with debug info
 *       (a split-off {@code .debug}, a dSYM, an unstripped binary) and the executable, each the
 *       first that a source has. The debug file is the fetch's body; an executable found beside it
 *       is spooled to a temporary file, the fetch's companion file, so the converter reads debug
 *       info from the one and unwind info from whichever has it (as Symbolicator does).
 * </ol>
 *
 * For {@code symbfile/<FileID>}, the ranges symbfile, with the return pads beside it (when the
 * source has them) as the fetch's companion. A module named by its build id alone ({@code
 * buildid/<id>[/<name>]}, {@link BuildIdKeys}) is searched by the debug id derived from it in the
 * Breakpad layouts and by the build id in the others.
 */
public final class NativeModuleLocator implements ModuleLocator {
  private static final Logger log = LoggerFactory.getLogger(NativeModuleLocator.class);

  /** The return pads are held in the heap while the ranges convert: at most this much. */
  static final int MAX_RETURN_PADS_BYTES = 256 << 20;

  private final int returnPadsCap =
      (int) Math.min(MAX_RETURN_PADS_BYTES, Runtime.getRuntime().maxMemory() / 8);

  private final DebugFileLayouts layouts;
  private final long maxFileBytes;

  /** The default layouts ({@link DebugFileLayouts#DEFAULT}), files up to 4 GiB. */
  public NativeModuleLocator() {
    this(DebugFileLayouts.defaults(), DebugFileInput.DEFAULT_MAX_BYTES);
  }

  /**
   * @param layouts the debug-file layouts searched per kind of source
   * @param maxFileBytes the largest executable spooled beside a debug file (a larger one is left
   *     out: the debug file converts alone)
   */
  public NativeModuleLocator(DebugFileLayouts layouts, long maxFileBytes) {
    this.layouts = layouts;
    this.maxFileBytes = maxFileBytes;
  }

  /** The {@code .sym} keys (after validating the identifiers); debug files are {@link #query}'s. */
  @Override
  public List<String> keys(ModuleRef ref) {
    if (SymbfileKeys.isFileIdKey(ref.key())) {
      return List.of(SymbfileKeys.ranges(ref.scope(), SymbfileKeys.fileId(ref.key())));
    }
    if (BuildIdKeys.isBuildIdKey(ref.key())) {
      BuildIdKeys.BuildId id = BuildIdKeys.parse(ref.key());
      if (id.fileName() == null) {
        return List.of(); // no name, no Breakpad path: the build-id layouts only
      }
      String prefix = SymbolLayout.scopePrefix(ref.scope());
      return SymbolLayout.breakpad(DebugIdentifiers.nativeModule(id.fileName(), id.debugId()))
          .stream()
          .map(k -> prefix + k)
          .toList();
    }
    return ModuleLocator.nativeKeys(ref);
  }

  /** The module's identity as the debug-file layouts take it. */
  static DebugFileLayout.Query query(ModuleRef ref) {
    if (BuildIdKeys.isBuildIdKey(ref.key())) {
      BuildIdKeys.BuildId id = BuildIdKeys.parse(ref.key());
      return new DebugFileLayout.Query(id.fileName(), id.debugId(), id.fileName(), id.codeId());
    }
    int slash = ref.key().lastIndexOf('/');
    var id =
        DebugIdentifiers.nativeModule(
            ref.key().substring(0, slash), ref.key().substring(slash + 1));
    return new DebugFileLayout.Query(id.debugFile(), id.debugId(), null, null);
  }

  private final int sourceBundleCap = SourceBundleFetch.cap();

  /**
   * The module's symbols ({@link #fetchSymbols}) and, when one is found, the source bundle beside
   * them ({@link DebugFileLayout.Kind#SOURCE_BUNDLE}) as the fetch's companion: its sources
   * become pages of the module's table ({@link SourceBundleFetch}).
   */
  @Override
  public FetchResult fetch(ModuleRef ref, SourceChain sources) {
    FetchResult symbols = fetchSymbols(ref, sources);
    if (!(symbols instanceof FetchResult.Found found)
        || SymbfileKeys.isFileIdKey(ref.key())
        || found.companion() != null) {
      return symbols;
    }
    DebugFileLayout.Query q = query(ref);
    String prefix = SymbolLayout.scopePrefix(ref.scope());
    return SourceBundleFetch.attach(
        found,
        sources,
        s -> debugKeys(s, prefix, q, DebugFileLayout.Kind.SOURCE_BUNDLE),
        sourceBundleCap);
  }

  private FetchResult fetchSymbols(ModuleRef ref, SourceChain sources) {
    if (SymbfileKeys.isFileIdKey(ref.key())) {
      return fetchSymbfile(ref, sources);
    }
    List<String> symKeys = keys(ref);
    DebugFileLayout.Query q = query(ref);
    String prefix = SymbolLayout.scopePrefix(ref.scope());
    FetchResult sym =
        sources.fetchFirst(
            s -> {
              List<String> k = new ArrayList<>(symKeys);
              if (layouts.of(s).contains(DebugFileLayout.UNIFIED)) {
                DebugFileLayout.UNIFIED.keys(q, DebugFileLayout.Kind.BREAKPAD).stream()
                    .map(x -> prefix + x)
                    .forEach(k::add);
              }
              return k;
            });
    if (!(sym instanceof FetchResult.NotFound symMissing)) {
      return sym; // found, or a source could not answer: retried before debug files are tried
    }
    FetchResult debug =
        sources.fetchFirst(
            s -> debugKeys(s, prefix, q, DebugFileLayout.Kind.DEBUG_INFO),
            NativeModuleLocator::followPointer);
    if (debug instanceof FetchResult.Failed) {
      return debug;
    }
    FetchResult exe =
        sources.fetchFirst(
            s -> debugKeys(s, prefix, q, DebugFileLayout.Kind.EXECUTABLE),
            NativeModuleLocator::followPointer);
    if (exe instanceof FetchResult.Failed) {
      closeQuietly(debug);
      return exe;
    }
    if (debug instanceof FetchResult.Found d) {
      if (exe instanceof FetchResult.Found e) {
        return withExecutable(d, e, q);
      }
      return q.codeId() == null ? executableByItsCodeId(d, q, prefix, sources) : d;
    }
    if (exe instanceof FetchResult.Found e) {
      return e;
    }
    FetchResult image = imageOfPdb(q, prefix, sources);
    if (!(image instanceof FetchResult.NotFound imageMissing)) {
      return image;
    }
    return new FetchResult.NotFound(
        join(
            join(symMissing.tried(), ((FetchResult.NotFound) debug).tried(), exe),
            imageMissing.tried(),
            (String) null));
  }

  /**
   * A Windows module whose PDB no source has: its image, which an event naming the module by its
   * PDB cannot find by code id, looked for under the PDB's debug id (the image's CodeView record
   * carries it) with the PDB's name ending in {@code .dll}, then {@code .exe}, in the native
   * layout where an upload stores an image ({@code name.dll/<DEBUG_ID>/name.dll}). The converter
   * dumps it without its PDB: exports as PUBLIC and {@code .pdata} as STACK CFI, as Breakpad's
   * {@code dump_syms.exe} does for an image alone.
   */
  private FetchResult imageOfPdb(DebugFileLayout.Query q, String prefix, SourceChain sources) {
    String pdb = q.debugFile();
    if (pdb == null
        || q.debugId() == null
        || q.codeId() != null
        || !pdb.toLowerCase(Locale.ROOT).endsWith(".pdb")) {
      return new FetchResult.NotFound("");
    }
    String stem = pdb.substring(0, pdb.length() - 4);
    return sources.fetchFirst(
        s -> {
          List<String> keys = new ArrayList<>();
          if (layouts.of(s).contains(DebugFileLayout.NATIVE)) {
            for (String ext : new String[] {".dll", ".exe"}) {
              DebugFileLayout.Query image =
                  new DebugFileLayout.Query(stem + ext, q.debugId(), null, null);
              for (String k : DebugFileLayout.NATIVE.keys(image, DebugFileLayout.Kind.DEBUG_INFO)) {
                keys.add(prefix + k);
              }
            }
          }
          return keys;
        });
  }

  /**
   * A module named by debug id has no code id to find its executable by (the executable keys of
   * every layout need it), but the debug file found names it: the debug file is spooled to a
   * temporary file, its code id (ELF build id, Mach-O UUID) read, and the executable searched by
   * it (named as the debug file, as Linux modules are), so an upload of a stripped executable and
   * its {@code .debug} gives the unwind info of the one and the debug info of the other. A debug
   * file over {@code maxFileBytes} streams on as it is (the converter refuses it).
   */
  private FetchResult executableByItsCodeId(
      FetchResult.Found debug, DebugFileLayout.Query q, String prefix, SourceChain sources) {
    Path dir = null;
    try {
      dir = Files.createTempDirectory("symbolicate-dbg-");
      Path file = dir.resolve("debuginfo");
      InputStream body = debug.body();
      long copied;
      try (OutputStream out = Files.newOutputStream(file)) {
        copied = copy(body, out, maxFileBytes);
      }
      if (copied < 0) {
        deleteTree(dir);
        return debug; // partly read: the converter sees a body over the limit either way
      }
      body.close();
      FetchResult.Found local =
          new FetchResult.Found(debug.location(), copied, new DeletingInput(file, dir));
      String codeId = codeIdOf(file);
      if (codeId == null) {
        return local;
      }
      DebugFileLayout.Query byCode =
          new DebugFileLayout.Query(q.debugFile(), q.debugId(), q.debugFile(), codeId);
      FetchResult exe =
          sources.fetchFirst(
              s -> debugKeys(s, prefix, byCode, DebugFileLayout.Kind.EXECUTABLE),
              NativeModuleLocator::followPointer);
      if (exe instanceof FetchResult.Failed) {
        closeQuietly(local);
        return exe;
      }
      return exe instanceof FetchResult.Found e ? withExecutable(local, e, byCode) : local;
    } catch (IOException e) {
      closeQuietly(debug);
      if (dir != null) {
        deleteTree(dir);
      }
      return new FetchResult.Failed(debug.location(), "reading the debug file: " + e);
    }
  }

  /**
   * A symbol store's {@code file.ptr} followed to the file it names, in the same source only
   * ({@link SymbolSource#keyOfPointer}) and once; a pointer out of the source, a {@code MSG:} or
   * a body that is not a pointer is a miss (the next key is tried), with the reason in the keys
   * tried.
   */
  static FetchResult followPointer(SymbolSource source, String key, FetchResult.Found found) {
    if (!key.endsWith("/" + DebugFileLayout.FILE_PTR)) {
      return found;
    }
    FilePointer.Target t;
    try (found) {
      t = FilePointer.read(found.body());
    } catch (IOException e) {
      return new FetchResult.NotFound(found.location() + " (" + e.getMessage() + ")");
    }
    if (t.path() == null) {
      return new FetchResult.NotFound(found.location() + " (MSG: " + t.message() + ")");
    }
    String target = source.keyOfPointer(t.path());
    if (target == null || target.endsWith("/" + DebugFileLayout.FILE_PTR)) {
      return new FetchResult.NotFound(
          found.location()
              + " (points out of "
              + source.name()
              + ": "
              + t.path()
              + ", not followed)");
    }
    FetchResult r = source.fetch(target);
    return r instanceof FetchResult.NotFound nf
        ? new FetchResult.NotFound(found.location() + " -> " + nf.tried())
        : r;
  }

  /** The code id an object file names, or null (not one we read, or without one). */
  private static String codeIdOf(Path file) {
    try {
      String id = ObjectFiles.open(file, null).identity().codeId();
      return id == null || id.isEmpty() ? null : id;
    } catch (IOException | RuntimeException e) {
      return null; // the converter says what is wrong with the file
    }
  }

  /** A spooled file's stream that deletes the file and its directory when closed. */
  private static final class DeletingInput extends FilterInputStream {
    private final Path file;
    private final Path dir;

    DeletingInput(Path file, Path dir) throws IOException {
      super(Files.newInputStream(file));
      this.file = file;
      this.dir = dir;
    }

    @Override
    public void close() throws IOException {
      try {
        super.close();
      } finally {
        deleteQuietly(file, dir);
      }
    }
  }

  /** A source's keys of one kind of file, under the scope's prefix as the .sym files are. */
  private List<String> debugKeys(
      SymbolSource s, String prefix, DebugFileLayout.Query q, DebugFileLayout.Kind kind) {
    List<String> keys = new ArrayList<>();
    for (DebugFileLayout l : layouts.of(s)) {
      for (String k : l.keys(q, kind)) {
        keys.add(prefix + k);
      }
    }
    return keys;
  }

  /**
   * The debug file with the executable beside it, spooled to a temporary file named as the
   * module (the name its table's MODULE record gets). Reading the executable failing is
   * transient; one too large is left out (the debug file converts alone).
   */
  private FetchResult withExecutable(
      FetchResult.Found debug, FetchResult.Found exe, DebugFileLayout.Query q) {
    Path dir = null;
    try (exe;
        InputStream in = exe.body()) {
      dir = Files.createTempDirectory("symbolicate-exe-");
      String name = q.codeFile() != null ? q.codeFile() : q.debugFile();
      Path file = dir.resolve(name != null ? name : "executable");
      long copied;
      try (OutputStream out = Files.newOutputStream(file)) {
        copied = copy(in, out, maxFileBytes);
      }
      if (copied < 0) {
        log.warn(
            "{}: executable larger than {} bytes left out; the debug file {} converts alone",
            exe.location(),
            maxFileBytes,
            debug.location());
        deleteQuietly(file, dir);
        return debug;
      }
      return debug.withCompanionFile(file);
    } catch (IOException e) {
      closeQuietly(debug);
      if (dir != null) {
        deleteTree(dir);
      }
      return new FetchResult.Failed(exe.location(), "reading the executable: " + e);
    }
  }

  /** Copies at most {@code max} bytes; -1 when the input has more. */
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

  private FetchResult fetchSymbfile(ModuleRef ref, SourceChain sources) {
    FetchResult ranges = sources.fetchFirst(keys(ref));
    if (!(ranges instanceof FetchResult.Found found)) {
      return ranges;
    }
    FileId id = SymbfileKeys.fileId(ref.key());
    FetchResult pads = sources.fetchFirst(List.of(SymbfileKeys.returnPads(ref.scope(), id)));
    if (pads instanceof FetchResult.NotFound) {
      return found; // return pads are optional
    }
    if (pads instanceof FetchResult.Failed failed) {
      closeQuietly(found);
      return failed; // retried: a table without its pads would answer caller frames worse
    }
    FetchResult.Found p = (FetchResult.Found) pads;
    try (p;
        InputStream in = p.body()) {
      byte[] bytes = in.readNBytes(returnPadsCap + 1);
      if (bytes.length > returnPadsCap) {
        log.warn(
            "{}: return pads larger than {} bytes are not read; the ranges answer caller frames",
            p.location(),
            returnPadsCap);
        return found;
      }
      return found.withCompanion(bytes);
    } catch (IOException e) {
      closeQuietly(found);
      return new FetchResult.Failed(p.location(), "reading the return pads: " + e);
    }
  }

  private static String join(String sym, String debug, FetchResult exe) {
    return join(sym, debug, exe instanceof FetchResult.NotFound nf ? nf.tried() : null);
  }

  private static String join(String sym, String debug, String exe) {
    List<String> parts = new ArrayList<>();
    for (String s : new String[] {sym, debug, exe}) {
      if (s != null && !s.isEmpty()) {
        parts.add(s);
      }
    }
    return String.join(", ", parts);
  }

  private static void closeQuietly(FetchResult f) {
    if (f instanceof FetchResult.Found found) {
      try {
        found.close();
      } catch (IOException ignored) {
        // the fetch is failing anyway
      }
    }
  }

  private static void deleteQuietly(Path file, Path dir) {
    try {
      Files.deleteIfExists(file);
      Files.deleteIfExists(dir);
    } catch (IOException ignored) {
      // a temporary file left behind
    }
  }

  private static void deleteTree(Path dir) {
    try (var files = Files.list(dir)) {
      for (Path p : files.toList()) {
        Files.deleteIfExists(p);
      }
      Files.deleteIfExists(dir);
    } catch (IOException ignored) {
      // a temporary file left behind
    }
  }
}
