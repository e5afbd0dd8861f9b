package io.symbolicate.connectors.source;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Debug files in a local directory, with the same layout as a bucket. */
public final class FileSystemSource implements SymbolSource {
  private final Path root;

  public FileSystemSource(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  @Override
  public String type() {
    return "dir";
  }

  @Override
  public String name() {
    return "file://" + root;
  }

  @Override
  public FetchResult fetch(String key) {
    Path p = root.resolve(key).normalize();
    // layouts only produce validated keys; this is defence in depth against traversal
    if (!p.startsWith(root)) {
      return new FetchResult.NotFound(name() + " (key outside the root refused)");
    }
    try {
      if (!Files.isRegularFile(p)) {
        return new FetchResult.NotFound(p.toString());
      }
      return new FetchResult.Found(p.toString(), Files.size(p), Files.newInputStream(p));
    } catch (NoSuchFileException e) {
      return new FetchResult.NotFound(p.toString());
    } catch (IOException e) {
      return new FetchResult.Failed(p.toString(), e.toString());
    }
  }
}
