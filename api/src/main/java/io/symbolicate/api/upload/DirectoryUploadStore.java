package io.symbolicate.api.upload;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** An {@link UploadStore} in a directory (the directory symbol source's root, or a staging folder). */
public final class DirectoryUploadStore implements UploadStore {
  private static final String TMP_SUFFIX = ".upload.tmp";
  private final Path root;

  public DirectoryUploadStore(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  private Path path(String key) {
    Path p = root.resolve(key).normalize();
    if (!p.startsWith(root) || p.equals(root)) {
      throw new IllegalArgumentException("key leaves the store: " + key);
    }
    return p;
  }

  private String key(Path p) {
    return root.relativize(p).toString().replace(File.separatorChar, '/');
  }

  @Override
  public void put(String key, Path file) throws IOException {
    Path target = path(key);
    Files.createDirectories(target.getParent());
    // written beside, then moved: a reader never sees half an object
    Path tmp = Files.createTempFile(target.getParent(), ".", TMP_SUFFIX);
    try {
      Files.copy(file, tmp, StandardCopyOption.REPLACE_EXISTING);
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  @Override
  public InputStream open(String key) throws IOException {
    try {
      return Files.newInputStream(path(key));
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  @Override
  public void delete(String key) throws IOException {
    Path p = path(key);
    Files.deleteIfExists(p);
    // empty folders left by the parts go too (the root stays)
    for (Path d = p.getParent();
        d != null && d.startsWith(root) && !d.equals(root);
        d = d.getParent()) {
      try (Stream<Path> s = Files.list(d)) {
        if (s.findAny().isPresent()) {
          break;
        }
      } catch (NoSuchFileException e) {
        continue;
      }
      try {
        Files.deleteIfExists(d);
      } catch (DirectoryNotEmptyException e) {
        break; // a part arrived meanwhile
      }
    }
  }

  @Override
  public List<StoredObject> list(String prefix, int max) throws IOException {
    if (!Files.isDirectory(root)) {
      return List.of();
    }
    List<StoredObject> out = new ArrayList<>();
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : (Iterable<Path>) s.filter(Files::isRegularFile).sorted()::iterator) {
        String k = key(p);
        if (k.startsWith(prefix) && !p.getFileName().toString().endsWith(TMP_SUFFIX)) {
          out.add(new StoredObject(k, Files.getLastModifiedTime(p).toMillis()));
          if (out.size() >= max) {
            break;
          }
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return out;
  }

  @Override
  public List<String> folders(String prefix, int max) throws IOException {
    int slash = prefix.lastIndexOf('/');
    Path dir = slash < 0 ? root : path(prefix.substring(0, slash));
    String namePrefix = prefix.substring(slash + 1);
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path p : (Iterable<Path>) s.filter(Files::isDirectory).sorted()::iterator) {
        if (p.getFileName().toString().startsWith(namePrefix)) {
          out.add(key(p) + "/");
          if (out.size() >= max) {
            break;
          }
        }
      }
    }
    return out;
  }

  @Override
  public String describe() {
    return root.toString();
  }
}
