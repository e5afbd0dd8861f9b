package io.symbolicate.api.upload;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
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

  /** Tries a step again when a concurrent delete removed the (empty) folder it writes in. */
  private static final int FOLDER_RETRIES = 32;

  @Override
  public void put(String key, Path file) throws IOException {
    Path target = path(key);
    for (int attempt = 1; ; attempt++) {
      try {
        createFolders(target.getParent());
        // written beside, then moved: a reader never sees half an object
        Path tmp = Files.createTempFile(target.getParent(), ".", TMP_SUFFIX);
        try {
          Files.copy(file, tmp, StandardCopyOption.REPLACE_EXISTING);
          Files.move(
              tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
          Files.deleteIfExists(tmp);
        }
        return;
      } catch (NoSuchFileException e) {
        // another request's delete took the empty folder between its creation and our write
        if (attempt >= FOLDER_RETRIES || !Files.exists(file)) {
          throw e;
        }
      }
    }
  }

  /**
   * {@link Files#createDirectories}, again when another request's delete takes a folder between
   * its creation and the check that it is one (which then throws {@link
   * FileAlreadyExistsException}: read as a taken claim, that left an upload unassembled).
   */
  private static void createFolders(Path dir) throws IOException {
    for (int attempt = 1; ; attempt++) {
      try {
        Files.createDirectories(dir);
        return;
      } catch (FileAlreadyExistsException | NoSuchFileException e) {
        if (attempt >= FOLDER_RETRIES) {
          throw e;
        }
      }
    }
  }

  @Override
  public boolean claim(String key) throws IOException {
    Path target = path(key);
    for (int attempt = 1; ; attempt++) {
      createFolders(target.getParent());
      try {
        Files.createFile(target);
        return true;
      } catch (FileAlreadyExistsException e) {
        return false;
      } catch (NoSuchFileException e) {
        if (attempt >= FOLDER_RETRIES) {
          throw e;
        }
      }
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

  /**
   * Walks only the folder the prefix names, and tolerates what vanishes meanwhile: other requests
   * assemble and delete their uploads' parts (and folders) while this one lists.
   */
  @Override
  public List<StoredObject> list(String prefix, int max) throws IOException {
    int slash = prefix.lastIndexOf('/');
    Path start = slash < 0 ? root : root.resolve(prefix.substring(0, slash)).normalize();
    if (!start.startsWith(root) || !Files.isDirectory(start)) {
      return List.of();
    }
    List<StoredObject> out = new ArrayList<>();
    walk(start, prefix, out);
    out.sort(Comparator.comparing(StoredObject::key));
    return out.size() > max ? List.copyOf(out.subList(0, max)) : out;
  }

  private void walk(Path dir, String prefix, List<StoredObject> out) throws IOException {
    List<Path> entries = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
      s.forEach(entries::add);
    } catch (NoSuchFileException | NotDirectoryException e) {
      return; // deleted meanwhile
    }
    for (Path p : entries) {
      BasicFileAttributes a;
      try {
        a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      } catch (NoSuchFileException e) {
        continue; // deleted meanwhile
      }
      String k = key(p);
      if (a.isDirectory()) {
        if (prefix.startsWith(k + "/") || (k + "/").startsWith(prefix)) {
          walk(p, prefix, out);
        }
      } else if (a.isRegularFile()
          && k.startsWith(prefix)
          && !p.getFileName().toString().endsWith(TMP_SUFFIX)) {
        out.add(new StoredObject(k, a.lastModifiedTime().toMillis()));
      }
    }
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
    try (Stream<Path> s = safeList(dir)) {
      for (Path p : (Iterable<Path>) s.filter(Files::isDirectory).sorted()::iterator) {
        // (a folder deleted meanwhile is no longer a directory: skipped)
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

  private static Stream<Path> safeList(Path dir) throws IOException {
    try {
      return Files.list(dir);
    } catch (NoSuchFileException e) {
      return Stream.empty();
    }
  }

  /**
   * Walks the folder the prefix names (only that one: a scope's usage is its own folder) and
   * sums the sizes of its files; what vanishes meanwhile counts nothing.
   */
  @Override
  public long usage(String prefix, Set<String> excluded) throws IOException {
    int slash = prefix.lastIndexOf('/');
    Path start = slash < 0 ? root : root.resolve(prefix.substring(0, slash)).normalize();
    if (!start.startsWith(root) || !Files.isDirectory(start)) {
      return 0;
    }
    long[] bytes = {0};
    sum(start, prefix, excluded, bytes);
    return bytes[0];
  }

  private void sum(Path dir, String prefix, Set<String> excluded, long[] bytes) throws IOException {
    List<Path> entries = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
      s.forEach(entries::add);
    } catch (NoSuchFileException | NotDirectoryException e) {
      return;
    }
    for (Path p : entries) {
      BasicFileAttributes a;
      try {
        a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      } catch (NoSuchFileException e) {
        continue;
      }
      String k = key(p);
      if (a.isDirectory()) {
        if (!excluded.contains(k + "/")
            && (prefix.startsWith(k + "/") || (k + "/").startsWith(prefix))) {
          sum(p, prefix, excluded, bytes);
        }
      } else if (a.isRegularFile() && k.startsWith(prefix)) {
        bytes[0] += a.size(); // a temporary file of a put in flight counts: it is on the disk
      }
    }
  }

  @Override
  public long size(String key) throws IOException {
    try {
      BasicFileAttributes a =
          Files.readAttributes(path(key), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return a.isRegularFile() ? a.size() : -1;
    } catch (NoSuchFileException e) {
      return -1;
    }
  }

  @Override
  public String describe() {
    return root.toString();
  }
}
