package io.symbolicate.api.upload;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** An {@link UploadStore} in a directory (the directory symbol source's root). */
public final class DirectoryUploadStore implements UploadStore {
  private final Path root;

  public DirectoryUploadStore(Path root) {
    this.root = root;
  }

  private Path path(String key) {
    Path p = root.resolve(key).normalize();
    if (!p.startsWith(root.normalize())) {
      throw new IllegalArgumentException("key leaves the store: " + key);
    }
    return p;
  }

  @Override
  public void put(String key, Path file) throws IOException {
    Path target = path(key);
    Files.createDirectories(target.getParent());
    // written beside, then moved: a reader never sees half an object
    Path tmp = Files.createTempFile(target.getParent(), ".upload", ".tmp");
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
  public boolean exists(String key) {
    return Files.isRegularFile(path(key));
  }

  @Override
  public void delete(String key) throws IOException {
    Files.deleteIfExists(path(key));
  }
}
