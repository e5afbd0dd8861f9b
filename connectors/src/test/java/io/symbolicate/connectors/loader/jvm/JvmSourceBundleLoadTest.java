package io.symbolicate.connectors.loader.jvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.connectors.loader.LoadPacer;
import io.symbolicate.connectors.loader.TableConverter.MalformedSymbolsException;
import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.connectors.source.FileSystemSource;
import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.symbols.io.DebugFileInput;
import io.symbolicate.symbols.jvm.JvmSourceBundle;
import io.symbolicate.symbols.jvm.JvmSourcePath;
import io.symbolicate.symbols.jvm.JvmTable;
import io.symbolicate.symbols.sources.SourceContext;
import io.symbolicate.symbols.sources.SourcePage;
import io.symbolicate.symbols.sources.SourcePages;
import io.symbolicate.symbols.table.InMemoryPageSource;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.symbols.table.TablePage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM source bundle (as {@code sentry-cli debug-files bundle-jvm} writes one) stored at its
 * debug id in the unified layout is found by the JVM locator and converted into a table whose
 * source pages give a frame's context: the file's own lines.
 */
class JvmSourceBundleLoadTest {
  static final String ID = "b5bf82cc-780e-4814-bdd4-36bdb266dfe5";
  static final String SOURCE =
      "package io.example\n\nclass Checkout {\n    fun pay() {\n        error(\"declined\")\n"
          + "    }\n}\n";

  @TempDir Path dir;

  /** A bundle of one file, {@code ~/<path>.jvm}. */
  static byte[] bundle(String debugId, String path, String text) throws IOException {
    String zipPath = "files/_/_/" + path + ".jvm";
    String manifest =
        "{\"org\":\"o\",\"project\":\"p\",\"debug_id\":\""
            + debugId
            + "\",\"files\":{\""
            + zipPath
            + "\":{\"url\":\"~/"
            + path
            + ".jvm\"}}}";
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(new byte[] {'S', 'Y', 'S', 'B', 2, 0, 0, 0});
    try (ZipOutputStream zip = new ZipOutputStream(out)) {
      zip.putNextEntry(new ZipEntry(zipPath));
      zip.write(text.getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
      zip.putNextEntry(new ZipEntry("manifest.json"));
      zip.write(manifest.getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
    }
    return out.toByteArray();
  }

  private JvmTable load(ModuleRef ref) throws Exception {
    FetchResult r =
        new JvmModuleLocator().fetch(ref, new SourceChain(List.of(new FileSystemSource(dir))));
    assertThat(r).isInstanceOf(FetchResult.Found.class);
    try (FetchResult.Found found = (FetchResult.Found) r) {
      return (JvmTable)
          new JvmTableConverter()
              .convert(
                  ref, found, found.body(), DebugFileInput.DEFAULT_MAX_BYTES, LoadPacer.unpaced());
    }
  }

  private void place(String key, byte[] bytes) throws IOException {
    Path p = dir.resolve(key);
    Files.createDirectories(p.getParent());
    Files.write(p, bytes);
  }

  static SourceContext context(JvmTable t, String path, int line) {
    List<TablePage> sources =
        t.pages().stream().filter(p -> SourcePages.isSourceKey(p.firstKey())).toList();
    return SourcePages.context(
        new InMemoryPageSource<SourcePage>(sources, SourcePages::decode), path, line, 2);
  }

  @Test
  void aBundleAtItsUnifiedKeyLoadsAsASourceTable() throws Exception {
    ModuleRef ref = new ModuleRef("global", TableKind.JVM, JvmSourceBundle.moduleKey(ID));
    assertThat(new JvmModuleLocator().keys(ref))
        .containsExactly(
            "b5/bf82cc780e4814bdd436bdb266dfe5/sourcebundle",
            "b5/bf82cc780e4814bdd436bdb266dfe50/sourcebundle");
    place(
        "b5/bf82cc780e4814bdd436bdb266dfe5/sourcebundle",
        bundle(ID, "io/example/Checkout", SOURCE));
    JvmTable t = load(ref);
    SourceContext c = context(t, JvmSourcePath.of("io.example.Checkout", "Checkout.kt"), 5);
    assertThat(c.preContext()).containsExactly("class Checkout {", "    fun pay() {");
    assertThat(c.contextLine()).isEqualTo("        error(\"declined\")");
    assertThat(c.postContext()).containsExactly("    }", "}");
  }

  @Test
  void theSameKeyWithTheAgeAndInAScopeIsFoundToo() throws Exception {
    ModuleRef ref = new ModuleRef("acme", TableKind.JVM, JvmSourceBundle.moduleKey(ID));
    String key = new JvmModuleLocator().keys(ref).get(1);
    assertThat(key).isEqualTo("scopes/acme/b5/bf82cc780e4814bdd436bdb266dfe50/sourcebundle");
    place(key, bundle(ID, "io/example/Checkout", SOURCE));
    assertThat(context(load(ref), "~/io/example/Checkout.jvm", 3).contextLine())
        .isEqualTo("class Checkout {");
  }

  @Test
  void aMappingIsStillFoundByItsUuid() {
    ModuleRef ref = new ModuleRef("global", TableKind.JVM, ID);
    assertThat(new JvmModuleLocator().keys(ref))
        .containsExactly("jvm/proguard/" + ID + "/mapping.txt");
  }

  @Test
  void aBundleOfAnotherIdOrNoBundleIsMalformed() throws Exception {
    ModuleRef ref = new ModuleRef("global", TableKind.JVM, JvmSourceBundle.moduleKey(ID));
    String key = new JvmModuleLocator().keys(ref).get(0);
    place(key, bundle("5456a2d1-fb13-4749-97cd-8be3df3a3743", "io/example/Checkout", SOURCE));
    assertThatThrownBy(() -> load(ref))
        .isInstanceOf(MalformedSymbolsException.class)
        .hasMessageContaining("names debug id 5456a2d1-fb13-4749-97cd-8be3df3a3743");
    place(key, "not a zip".getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> load(ref))
        .isInstanceOf(MalformedSymbolsException.class)
        .hasMessageStartingWith("source bundle: ");
  }
}
