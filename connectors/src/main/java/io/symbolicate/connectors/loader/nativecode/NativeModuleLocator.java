package io.symbolicate.connectors.loader.nativecode;

import io.symbolicate.connectors.loader.ModuleLocator;
import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.symbols.symbfile.FileId;
import io.symbolicate.symbols.symbfile.SymbfileKeys;
import io.symbolicate.symbols.table.ModuleRef;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a native module's symbols live: Mozilla's layout for {@code debug_file/debug_id}, and for
 * {@code symbfile/<FileID>} the ranges symbfile, with the return pads beside it (when the source
 * has them) as the fetch's companion, so the converter reads both into one table.
 */
public final class NativeModuleLocator implements ModuleLocator {
  private static final Logger log = LoggerFactory.getLogger(NativeModuleLocator.class);

  /** The return pads are held in the heap while the ranges convert: at most this much. */
  static final int MAX_RETURN_PADS_BYTES = 256 << 20;

  private final int returnPadsCap =
      (int) Math.min(MAX_RETURN_PADS_BYTES, Runtime.getRuntime().maxMemory() / 8);

  @Override
  public List<String> keys(ModuleRef ref) {
    if (SymbfileKeys.isFileIdKey(ref.key())) {
      return List.of(SymbfileKeys.ranges(ref.scope(), SymbfileKeys.fileId(ref.key())));
    }
    return ModuleLocator.nativeKeys(ref);
  }

  @Override
  public FetchResult fetch(ModuleRef ref, SourceChain sources) {
    FetchResult ranges = sources.fetchFirst(keys(ref));
    if (!SymbfileKeys.isFileIdKey(ref.key()) || !(ranges instanceof FetchResult.Found found)) {
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

  private static void closeQuietly(FetchResult.Found f) {
    try {
      f.close();
    } catch (IOException ignored) {
      // the fetch is failing anyway
    }
  }
}
