package io.symbolicate.connectors.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Case-insensitive lookups and {@code file.ptr} targets of the sources (docs/operations.md). */
class FileSystemSourceTest {
  @TempDir Path dir;

  private static String read(FetchResult r) throws IOException {
    try (InputStream in = ((FetchResult.Found) r).body()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void aKeyMissingAsWrittenIsFoundIgnoringCaseOneFolderAtATime() throws IOException {
    Path root = Files.createDirectories(dir.resolve("store"));
    Path f = root.resolve("CRASH.PDB/3249d99d0c4049318610f4e4fb0b69361/Crash.pdb");
    Files.createDirectories(f.getParent());
    Files.writeString(f, "pdb");
    FileSystemSource src = new FileSystemSource(root);
    assertThat(read(src.fetch("crash.pdb/3249D99D0C4049318610F4E4FB0B69361/crash.pdb")))
        .isEqualTo("pdb");
    // the exact name wins over another casing of it
    Path exact = root.resolve("CRASH.PDB/3249d99d0c4049318610f4e4fb0b69361/crash.pdb");
    Files.writeString(exact, "exact");
    assertThat(read(src.fetch("CRASH.PDB/3249d99d0c4049318610f4e4fb0b69361/crash.pdb")))
        .isEqualTo("exact");
    assertThat(src.fetch("crash.pdb/3249D99D0C4049318610F4E4FB0B69361/other.pdb"))
        .isInstanceOf(FetchResult.NotFound.class);
    // a folder is not a file, in any case
    assertThat(src.fetch("crash.pdb/3249D99D0C4049318610F4E4FB0B69361"))
        .isInstanceOf(FetchResult.NotFound.class);
    // never out of the root, whatever the case
    Files.writeString(dir.resolve("SECRET.txt"), "secret");
    assertThat(src.fetch("../secret.txt")).isInstanceOf(FetchResult.NotFound.class);
  }

  @Test
  void pointersAreKeysOnlyInsideTheSource() {
    Path root = dir.resolve("store").toAbsolutePath();
    FileSystemSource fs = new FileSystemSource(root);
    assertThat(fs.keyOfPointer("a.pdb\\ABC1\\a.pdb")).isEqualTo("a.pdb/ABC1/a.pdb");
    assertThat(fs.keyOfPointer(root + "/share/a.pdb")).isEqualTo("share/a.pdb");
    assertThat(fs.keyOfPointer(root + "/../other/a.pdb")).isNull();
    assertThat(fs.keyOfPointer(root.toString())).isNull();
    assertThat(fs.keyOfPointer("\\\\server\\share\\a.pdb")).isNull();
    assertThat(fs.keyOfPointer("C:\\symbols\\a.pdb")).isNull();
    assertThat(fs.keyOfPointer("a/../../b")).isNull();
    assertThat(fs.keyOfPointer("a//b")).isNull();

    HttpSource http =
        new HttpSource(URI.create("http://127.0.0.1:9/symbols"), Duration.ofSeconds(1));
    assertThat(http.keyOfPointer("http://127.0.0.1:9/symbols/a.pdb/AB1/a.pdb"))
        .isEqualTo("a.pdb/AB1/a.pdb");
    assertThat(http.keyOfPointer("http://elsewhere/symbols/a.pdb/AB1/a.pdb")).isNull();
    assertThat(http.keyOfPointer("http://127.0.0.1:9/symbols/../x")).isNull();
    assertThat(http.keyOfPointer("/etc/passwd")).isNull();

    SymbolSource other = new SourceChain(List.of(fs));
    assertThat(other.keyOfPointer("x/y.pdb")).isEqualTo("x/y.pdb");
    assertThat(other.keyOfPointer(root + "/x/y.pdb")).as("absolute: only a directory's").isNull();
  }

  @Test
  void aPointerIsOneShortLineOfPathOrMessage() throws IOException {
    assertThat(FilePointer.read(in("PATH:\\\\srv\\s\\a.pdb\r\n")).path())
        .isEqualTo("\\\\srv\\s\\a.pdb");
    assertThat(FilePointer.read(in("msg: gone")).message()).isEqualTo("gone");
    assertThatThrownBy(() -> FilePointer.read(in("MZ...")))
        .hasMessageContaining("neither PATH: nor MSG:");
    assertThatThrownBy(() -> FilePointer.read(in("PATH:" + "a".repeat(5000))))
        .hasMessageContaining("longer than");
  }

  private static InputStream in(String s) {
    return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
  }
}
