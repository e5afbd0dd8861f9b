package io.symbolicate.api.upload;

import io.symbolicate.symbols.table.ModuleRef;

/**
 * Tells the loader a module's files changed: on {@code symbols.uploads} in {@code run} (the
 * record the S3 connector writes), or the local loader in {@code serve}.
 */
@FunctionalInterface
public interface Announcer {
  void announce(ModuleRef module) throws Exception;
}
