package io.symbolicate.connectors.loader.dotnet;

import io.symbolicate.connectors.loader.LoadPacer;
import io.symbolicate.connectors.loader.TableConverter;
import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.symbols.dotnet.DotnetImage;
import io.symbolicate.symbols.dotnet.DotnetTable;
import io.symbolicate.symbols.dotnet.PortablePdb;
import io.symbolicate.symbols.dotnet.PortablePdbException;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.io.DebugFileInput;
import io.symbolicate.symbols.table.CompactTable;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The loader's converter for .NET modules: a Portable PDB, or an assembly that embeds one, into
 * the paged {@link DotnetTable} (method row and IL offset to file and line). A Windows (MSF) PDB
 * is refused with Symbolicator's reason, {@code unsupported: Only portable PDB files can be used
 * for .NET symbolication}, and cached as malformed; so is a PDB whose GUID is not the module's.
 */
public final class DotnetTableConverter implements TableConverter {
  /** The message a Windows PDB given as a .NET module is refused with (as Symbolicator words it). */
  public static final String UNSUPPORTED =
      "unsupported: Only portable PDB files can be used for .NET symbolication";

  private static final byte[] MSF = "Microsoft C/C++ MSF 7.00".getBytes(StandardCharsets.US_ASCII);

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
    return build(read(in, maxInputBytes), null);
  }

  @Override
  public CompactTable convert(
      ModuleRef ref, FetchResult.Found found, InputStream in, long maxInputBytes, LoadPacer pacer)
      throws IOException, MalformedSymbolsException {
    return build(read(in, maxInputBytes), ref);
  }

  private static byte[] read(InputStream in, long maxInputBytes) throws IOException {
    // the PDB is parsed in memory: bounded by the heap too, not only by the configured cap
    try (InputStream body = DebugFileInput.wrapInHeap(in, maxInputBytes, "Portable PDB")) {
      return body.readAllBytes();
    }
  }

  /** The table of a Portable PDB (or an assembly's embedded one), checked against {@code ref}. */
  static CompactTable build(byte[] bytes, ModuleRef ref) throws MalformedSymbolsException {
    if (bytes.length >= MSF.length && Arrays.equals(bytes, 0, MSF.length, MSF, 0, MSF.length)) {
      throw new MalformedSymbolsException(UNSUPPORTED, null);
    }
    try {
      byte[] pdbBytes = bytes;
      if (DotnetImage.looksLikePe(bytes)) {
        Optional<byte[]> embedded = DotnetImage.parse(bytes).embeddedPortablePdb();
        if (embedded.isEmpty()) {
          throw new MalformedSymbolsException("assembly without an embedded Portable PDB", null);
        }
        pdbBytes = embedded.get();
      }
      if (!PortablePdb.looksLikePortablePdb(pdbBytes)) {
        throw new MalformedSymbolsException("not a Portable PDB (no BSJB metadata root)", null);
      }
      PortablePdb pdb = PortablePdb.parse(pdbBytes);
      if (ref != null) {
        checkGuid(ref, pdb.debugId());
      }
      return DotnetTable.build(pdb);
    } catch (PortablePdbException e) {
      throw new MalformedSymbolsException(e.getMessage(), e);
    }
  }

  /** The PDB's GUID must be the module's (the age is the stamp, which layouts replace). */
  private static void checkGuid(ModuleRef ref, String pdbDebugId) throws MalformedSymbolsException {
    String key = ref.key();
    String wanted = key.substring(key.lastIndexOf('/') + 1);
    String got = DebugIdentifiers.normalizeDebugId(pdbDebugId);
    if (wanted.length() < 32
        || got.length() < 32
        || !wanted.substring(0, 32).equalsIgnoreCase(got.substring(0, 32))) {
      throw new MalformedSymbolsException(
          "the Portable PDB's id "
              + pdbDebugId.toLowerCase(Locale.ROOT)
              + " is not the module's "
              + wanted,
          null);
    }
  }
}
