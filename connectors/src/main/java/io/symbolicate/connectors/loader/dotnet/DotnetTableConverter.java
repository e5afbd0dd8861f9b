package io.symbolicate.connectors.loader.dotnet;

import io.symbolicate.connectors.loader.LoadPacer;
import io.symbolicate.connectors.loader.TableConverter;
import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.symbols.dotnet.DotnetImage;
import io.symbolicate.symbols.dotnet.DotnetTable;
import io.symbolicate.symbols.dotnet.EmbeddedSources;
import io.symbolicate.symbols.dotnet.PortablePdb;
import io.symbolicate.symbols.dotnet.PortablePdbException;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.io.DebugFileInput;
import io.symbolicate.symbols.sources.SourceBundle;
import io.symbolicate.symbols.sources.SourceBundleException;
import io.symbolicate.symbols.sources.SourceFile;
import io.symbolicate.symbols.sources.SourcePages;
import io.symbolicate.symbols.sources.SourcePaths;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.table.TablePage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loader's converter for .NET modules: a Portable PDB, or an assembly that embeds one (debug
 * directory entry 17), into a {@link DotnetTable}, with the sources the PDB embeds and those of
 * the source bundle found beside it. The PDB must be the module's: its id (GUID
 * and stamp) equal to the module's debug id, else the file is {@code malformed}. A Windows (MSF)
 * PDB is refused as Symbolicator refuses it for a .NET module.
 */
public final class DotnetTableConverter implements TableConverter {
  /**
   * Embedded and bundled sources may take this much of a table, after its own pages (as native
   * bundles).
   */
  static final long MAX_SOURCE_PAGE_BYTES = 256L << 20;

  private static final Logger log = LoggerFactory.getLogger(DotnetTableConverter.class);

  /**
   * The reason a Windows PDB given as a .NET module is malformed; {@code POST /symbolicate}
   * reports such a module as Symbolicator's {@code unsupported}.
   */
  public static final String WINDOWS_PDB =
      "a Windows PDB, not a Portable PDB: unsupported for a .NET module";

  @Override
  public TableKind kind() {
    return TableKind.DOTNET;
  }

  @Override
  public int formatVersion() {
    return DotnetTable.FORMAT_VERSION;
  }

  @Override
  public CompactTable convert(InputStream in, long maxInputBytes)
      throws IOException, MalformedSymbolsException {
    return table(read(in, maxInputBytes));
  }

  /**
   * The module's table, with the sources its PDB embeds and those of the source bundle found
   * beside it ({@link FetchResult.Found#companion()}, or null).
   */
  @Override
  public CompactTable convert(
      ModuleRef ref, FetchResult.Found found, InputStream in, long maxInputBytes, LoadPacer pacer)
      throws IOException, MalformedSymbolsException {
    PortablePdb pdb = pdb(read(in, maxInputBytes));
    String want = DotnetModuleLocator.identity(ref).debugId();
    String have = DebugIdentifiers.normalizeDebugId(pdb.debugId());
    if (!want.equals(have)) {
      throw new MalformedSymbolsException(
          "the Portable PDB's id is " + have + ", not the module's " + want, null);
    }
    return built(pdb, found.companion());
  }

  /** The table; a PDB whose tables or sequence points turn out bad while building is malformed. */
  private static DotnetTable built(PortablePdb pdb, byte[] bundle)
      throws MalformedSymbolsException {
    try {
      return withSources(pdb, bundle);
    } catch (PortablePdbException e) {
      throw new MalformedSymbolsException(e.getMessage(), e);
    }
  }

  /**
   * The PDB's table with the sources it embeds as pages after its own (docs/sources.md), for the
   * context lines of its frames; a source that is binary or not UTF-8 is left out (logged).
   */
  static DotnetTable withSources(PortablePdb pdb) {
    return withSources(pdb, null);
  }

  /**
   * As {@link #withSources(PortablePdb)}, with the files of a source bundle ({@code bundle}, or
   * null) for the documents the PDB does not embed: an embedded source is the file that was
   * compiled, so it wins over a bundle's copy of the same path. A bundle that does not read or
   * names another debug id is left out (logged: the PDB's lines are still good).
   */
  static DotnetTable withSources(PortablePdb pdb, byte[] bundle) {
    DotnetTable table = DotnetTable.build(pdb);
    List<String> skipped = new ArrayList<>();
    List<SourceFile> files = new ArrayList<>(EmbeddedSources.files(pdb, skipped));
    int embedded = files.size();
    files.addAll(bundleFiles(pdb, bundle, files, skipped));
    if (files.isEmpty()) {
      return table;
    }
    List<TablePage> sources = SourcePages.pages(files, MAX_SOURCE_PAGE_BYTES, skipped);
    if (!skipped.isEmpty()) {
      log.info(
          "Portable PDB {}: sources: {} embedded, {} from its source bundle, {} skipped (first: {})",
          pdb.debugId(),
          embedded,
          files.size() - embedded,
          skipped.size(),
          skipped.get(0));
    }
    return sources.isEmpty() ? table : table.withSources(sources);
  }

  /** The files of {@code bundle} that are not among {@code embedded} (compared as paths). */
  private static List<SourceFile> bundleFiles(
      PortablePdb pdb, byte[] bundle, List<SourceFile> embedded, List<String> skipped) {
    if (bundle == null || !SourceBundle.looksLikeBundle(bundle)) {
      return List.of();
    }
    SourceBundle b;
    try {
      b = SourceBundle.read(bundle);
    } catch (SourceBundleException e) {
      log.warn("Portable PDB {}: source bundle not read: {}", pdb.debugId(), e.getMessage());
      return List.of();
    }
    if (!b.matchesDebugId(pdb.debugId())) {
      log.warn(
          "Portable PDB {}: source bundle names debug id {}; left out", pdb.debugId(), b.debugId());
      return List.of();
    }
    skipped.addAll(b.skipped());
    Set<String> have = new HashSet<>();
    for (SourceFile f : embedded) {
      have.add(SourcePaths.normalize(f.path()));
    }
    List<SourceFile> out = new ArrayList<>();
    for (SourceFile f : b.files()) {
      if (f.path() != null && have.add(SourcePaths.normalize(f.path()))) {
        out.add(f);
      }
    }
    return out;
  }

  private static byte[] read(InputStream in, long maxInputBytes) throws IOException {
    // the PDB is parsed in memory: bounded by the heap too, not only by the configured cap
    try (InputStream body = DebugFileInput.wrapInHeap(in, maxInputBytes, "Portable PDB")) {
      return body.readAllBytes();
    }
  }

  static DotnetTable table(byte[] data) throws MalformedSymbolsException {
    return built(pdb(data), null);
  }

  /** A Portable PDB, or the one an assembly embeds; anything else is malformed. */
  static PortablePdb pdb(byte[] data) throws MalformedSymbolsException {
    try {
      if (PortablePdb.looksLikePortablePdb(data)) {
        return PortablePdb.parse(data);
      }
      if (DotnetImage.looksLikePe(data)) {
        byte[] embedded =
            DotnetImage.parse(data)
                .embeddedPortablePdb()
                .orElseThrow(
                    () ->
                        new MalformedSymbolsException(
                            "an assembly without an embedded Portable PDB", null));
        return PortablePdb.parse(embedded);
      }
    } catch (PortablePdbException e) {
      throw new MalformedSymbolsException(e.getMessage(), e);
    }
    if (data.length >= 24
        && new String(data, 0, 24, StandardCharsets.ISO_8859_1).startsWith("Microsoft C/C++ MSF")) {
      throw new MalformedSymbolsException(WINDOWS_PDB, null);
    }
    throw new MalformedSymbolsException("neither a Portable PDB nor a .NET assembly", null);
  }
}
