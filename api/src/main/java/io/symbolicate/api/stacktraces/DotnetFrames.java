package io.symbolicate.api.stacktraces;

import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.symbolication.store.SourceContextLookup;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.symbols.dotnet.DotnetPage;
import io.symbolicate.symbols.dotnet.DotnetTable;
import io.symbolicate.symbols.dotnet.PortablePdbException;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.PageSource;
import io.symbolicate.symbols.table.TableKind;
import java.util.Optional;

/**
 * The frames of one {@code pe_dotnet} module, looked up in its Portable PDB's table as
 * Symbolicator's {@code symbolicate_dotnet_frame} does: {@code function_id} is the MethodDef row,
 * {@code instruction_addr} the IL offset; no method, or no sequence point at or before the offset
 * in that method, is {@code missing_symbol}.
 */
final class DotnetFrames {
  private final SymbolLookup.Resolution resolution;
  private final PageSource<DotnetPage> pages;
  private final boolean sourceLink;

  private DotnetFrames(
      SymbolLookup.Resolution resolution, PageSource<DotnetPage> pages, boolean sourceLink) {
    this.resolution = resolution;
    this.pages = pages;
    this.sourceLink = sourceLink;
  }

  /**
   * The module's table in the store, {@code <debug_file>/<GUID><age>} as for a PDB (the file's
   * name, the debug id upper-cased without dashes); null when the module names no valid debug
   * file and id.
   */
  static ModuleRef ref(SymbolicateRequest.Module m, String scope) {
    if (m.debugFile() == null || m.debugId() == null) {
      return null;
    }
    try {
      return new ModuleRef(
          scope,
          TableKind.DOTNET,
          DebugIdentifiers.nativeModule(
                  SymbolicateHandler.basename(m.debugFile()),
                  SymbolicateHandler.breakpadId(m.debugId()))
              .key());
    } catch (DebugIdentifiers.InvalidIdentifierException e) {
      return null;
    }
  }

  static DotnetFrames resolve(SymbolLookup lookup, ModuleRef ref) {
    SymbolLookup.Resolution r = ref == null ? null : lookup.resolve(ref);
    if (r == null || !r.found()) {
      return new DotnetFrames(r, null, false);
    }
    DotnetTable.Header header;
    try {
      header = lookup.header(r, DotnetTable.Header::decode);
    } catch (PortablePdbException e) {
      header = null; // its pages answer malformed; only the feature is lost here
    }
    return new DotnetFrames(
        r,
        SourceContextLookup.tablePages(lookup, r, DotnetPage::decode),
        header != null && header.sourceLink());
  }

  /** Whether the module's PDB has Source Link rules (Symbolicator counts them as sources). */
  boolean sourceLink() {
    return sourceLink;
  }

  /** Our status of the module: found, missing, malformed, ...; malformed_request without a key. */
  ModuleStatus status() {
    return resolution == null ? ModuleStatus.malformed_request : resolution.moduleStatus();
  }

  /** The module's resolution in the store, or null without a key. */
  SymbolLookup.Resolution resolution() {
    return resolution;
  }

  String message() {
    return resolution == null ? null : resolution.message();
  }

  boolean found() {
    return pages != null;
  }

  /** The frame's line, or empty (missing_symbol); a page that does not decode: malformed. */
  Optional<DotnetPage.Line> lookup(Long functionId, long ilOffset) {
    if (functionId == null
        || functionId < 0
        || functionId > Integer.MAX_VALUE
        || ilOffset < 0
        || ilOffset > 0xffffffffL) {
      return Optional.empty();
    }
    return DotnetTable.lookup(pages, functionId.intValue(), ilOffset);
  }

  static boolean corrupt(RuntimeException e) {
    return e instanceof PortablePdbException;
  }
}
