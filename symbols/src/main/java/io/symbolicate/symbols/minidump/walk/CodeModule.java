package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.minidump.Module;
import io.symbolicate.symbols.minidump.Records.UnloadedModule;

/** A loaded or unloaded module as the walker and the reports see it. */
public record CodeModule(
    long base,
    long size,
    String codeFile,
    String codeId,
    String debugFile,
    String debugId,
    String version,
    boolean unloaded) {

  static CodeModule of(Module m) {
    return new CodeModule(
        m.base(),
        m.size(),
        m.codeFile(),
        m.codeId(),
        m.debugFile(),
        m.debugId(),
        m.version(),
        false);
  }

  static CodeModule of(UnloadedModule m) {
    return new CodeModule(m.base(), m.size(), m.name(), "", "", "", "", true);
  }

  /** The last path component, '/' or '\' separated, as Breakpad's PathnameStripper. */
  public static String basename(String path) {
    int i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
    return i < 0 ? path : path.substring(i + 1);
  }
}
