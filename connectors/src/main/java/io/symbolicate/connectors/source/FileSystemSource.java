package io.symbolicate.connectors.source;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Debug files in a local directory, with the same layout as a bucket. A key missing as written
 * is looked up again ignoring case, one folder at a time, as a Windows share holding a symbol
 * store answers ({@code CRASH.PDB/3249...1/crash.pdb}): Microsoft's stores are case-insensitive
 * and their writers do not agree on case.
 */
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
        Path other = ignoringCase(root.relativize(p));
        if (other == null) {
          return new FetchResult.NotFound(p.toString());
        }
        p = other;
      }
      return new FetchResult.Found(p.toString(), Files.size(p), Files.newInputStream(p));
    } catch (NoSuchFileException e) {
      return new FetchResult.NotFound(p.toString());
    } catch (IOException e) {
      return new FetchResult.Failed(p.toString(), e.toString());
    }
  }

  /**
   * The file whose path under the root equals {@code rel} ignoring case, or null: each folder's
   * entry as written when it exists, else the first (by name) that matches ignoring case.
   */
  private Path ignoringCase(Path rel) throws IOException {
    Path at = root;
    for (Path seg : rel) {
      String name = seg.toString();
      Path exact = at.resolve(name);
      if (Files.exists(exact)) {
        at = exact;
        continue;
      }
      if (!Files.isDirectory(at)) {
        return null;
      }
      Path match = null;
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(at)) {
        for (Path e : entries) {
          String n = e.getFileName().toString();
          if (n.equalsIgnoreCase(name)
              && (match == null || n.compareTo(match.getFileName().toString()) < 0)) {
            match = e;
          }
        }
      } catch (NoSuchFileException e) {
        return null;
      }
      if (match == null) {
        return null;
      }
      at = match;
    }
    return Files.isRegularFile(at) && at.normalize().startsWith(root) ? at : null;
  }

  /** As the default, and an absolute path inside the root (a share of this store) as its key. */
  @Override
  public String keyOfPointer(String path) {
    String rel = FilePointer.relativeKey(path);
    if (rel != null || path == null || !path.startsWith("/")) {
      return rel;
    }
    try {
      Path p = Path.of(path).normalize();
      if (!p.startsWith(root) || p.equals(root)) {
        return null;
      }
      return FilePointer.relativeKey(root.relativize(p).toString());
    } catch (InvalidPathException e) {
      return null;
    }
  }
}
