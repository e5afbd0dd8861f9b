package io.symbolicate.api.upload;

import io.symbolicate.symbols.id.SymbolLayout;
import io.symbolicate.symbols.jvm.MappingException;
import io.symbolicate.symbols.jvm.MappingLocator;
import io.symbolicate.symbols.jvm.MappingParser;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A ProGuard/R8 mapping, stored as {@code jvm/proguard/<uuid>/mapping.txt} (the loader's layout)
 * under the UUID the request names, or, without one, the UUID Sentry's tools give the file's
 * bytes ({@link MappingLocator#proguardUuid}). It must parse ({@link MappingParser}); it is read
 * into memory, as the loader reads it, so it is bounded by a quarter of the heap too.
 */
public final class ProguardFormat implements UploadFormat {
  private final String uuid;
  private final long maxFileBytes;

  /** @param uuidHeader the request's {@code UUID}, or null */
  ProguardFormat(String uuidHeader, long maxFileBytes) throws UploadError {
    try {
      this.uuid = uuidHeader == null ? null : MappingLocator.normaliseUuid(uuidHeader);
    } catch (IllegalArgumentException e) {
      throw UploadError.badRequest("UUID: " + e.getMessage());
    }
    this.maxFileBytes = maxFileBytes;
  }

  String uuid() {
    return uuid;
  }

  @Override
  public String stagingName() {
    return "proguard";
  }

  @Override
  public List<Placement> place(String scope, String id, Path file, Path work)
      throws UploadError, IOException {
    long size = Files.size(file);
    long bound = Math.min(maxFileBytes, Runtime.getRuntime().maxMemory() / 4);
    if (size > bound) {
      throw new UploadError(
          413,
          UploadError.TOO_LARGE,
          "a mapping of "
              + size
              + " bytes is more than "
              + bound
              + " bytes (the file limit, or a quarter of the heap)");
    }
    byte[] bytes = Files.readAllBytes(file);
    try {
      MappingParser.parse(bytes);
    } catch (MappingException e) {
      throw UploadError.invalidFile("not a valid ProGuard mapping: " + e.getMessage());
    }
    String u = uuid != null ? uuid : MappingLocator.proguardUuid(bytes);
    return List.of(
        new Placement(
            SymbolLayout.scopePrefix(scope) + MappingLocator.byUuid(u),
            file,
            new ModuleRef(scope, TableKind.JVM, u)));
  }
}
