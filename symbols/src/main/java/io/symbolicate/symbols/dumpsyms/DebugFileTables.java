package io.symbolicate.symbols.dumpsyms;

import io.symbolicate.symbols.nativecode.NativeHeader;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.nativecode.NativeTableBuilder;
import io.symbolicate.symbols.nativecode.SymFormatException;
import io.symbolicate.symbols.pdb.MsfFile;
import io.symbolicate.symbols.table.TablePage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The native table straight from a debug file, without a {@code .sym} in between: {@link DumpSyms}
 * streams its records into the same builder the {@code .sym} parser feeds, so the store, the API
 * and the minidump walker read the result unchanged.
 */
public final class DebugFileTables {
  private DebugFileTables() {}

  /** A table and what the dump read. */
  public record Converted(NativeTable table, DumpSyms.Report report) {}

  public static Converted convert(Path file, DumpSyms.Options dump, NativeSymbols.Options options)
      throws IOException, DumpSymsException {
    List<TablePage> pages = new ArrayList<>();
    try (NativeTableBuilder builder =
        new NativeTableBuilder(options.pageTargetBytes(), options.codec())) {
      DumpSyms.Report report = DumpSyms.dump(file, dump, builder);
      NativeHeader header = builder.finish(pages::add, sizeOf(file, report));
      return new Converted(new NativeTable(header, pages), report);
    } catch (NativeTableBuilder.IndexTooLargeException | SymFormatException e) {
      throw new DumpSymsException(file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Whether a file is one {@link DumpSyms} reads (ELF, Mach-O, a dSYM bundle, a PDB 7.0), by its
   * magic.
   */
  public static boolean isDebugFile(Path file) {
    try {
      Path target = DumpSyms.dsymBinary(file);
      byte[] head = DumpSyms.head(target);
      return head.length >= 4
              && ((head[0] == 0x7f && head[1] == 'E' && head[2] == 'L' && head[3] == 'F')
                  || DumpSyms.isMachO(head))
          || MsfFile.isMsf(DumpSyms.head(target, 32));
    } catch (IOException | DumpSymsException e) {
      return false;
    }
  }

  private static long sizeOf(Path file, DumpSyms.Report report) throws IOException {
    long size = Files.isRegularFile(file) ? Files.size(file) : 0;
    if (report.debugInfoFrom() != null && !report.debugInfoFrom().equals(file)) {
      size += Files.size(report.debugInfoFrom());
    }
    return size;
  }
}
