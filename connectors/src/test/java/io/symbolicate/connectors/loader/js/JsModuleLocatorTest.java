package io.symbolicate.connectors.loader.js;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.connectors.source.FetchResult;
import io.symbolicate.connectors.source.FileSystemSource;
import io.symbolicate.connectors.source.SourceChain;
import io.symbolicate.connectors.source.SymbolSource;
import io.symbolicate.symbols.js.JsReleaseModule;
import io.symbolicate.symbols.js.JsSymbolKeys;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JS locator against a real directory source: which objects it reads, in which order. */
class JsModuleLocatorTest {
  private static final String URL = "https://app.example.com/static/app.min.js";
  private static final String MAP =
      "{\"version\":3,\"sources\":[\"a.js\"],\"names\":[],\"mappings\":\"AAAA\"}";

  @TempDir Path root;
  private final JsModuleLocator locator = new JsModuleLocator();

  private void put(String key, String body) throws IOException {
    Path p = root.resolve(key);
    Files.createDirectories(p.getParent());
    Files.writeString(p, body);
  }

  private static ModuleRef ref(String scope, String release, String dist, String url) {
    return new ModuleRef(scope, TableKind.JS, JsReleaseModule.ofFrame(release, dist, url).key());
  }

  private String read(FetchResult r) throws IOException {
    assertThat(r).isInstanceOf(FetchResult.Found.class);
    try (FetchResult.Found f = (FetchResult.Found) r) {
      return new String(f.body().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** A source answering with {@code answer}, for failures a directory cannot produce. */
  private static SymbolSource source(String name, Function<String, FetchResult> answer) {
    return new SymbolSource() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public FetchResult fetch(String key) {
        return answer.apply(key);
      }
    };
  }

  private SourceChain chain() {
    return new SourceChain(List.of(new FileSystemSource(root)));
  }

  @Test
  void debugIdsKeepTheirLayout() {
    ModuleRef ref = new ModuleRef("tenant-a", TableKind.JS, "c941a2f6-1b7e-4d2a-9c0f-3a5b8e7d6f10");
    assertThat(locator.keys(ref))
        .containsExactly(
            "scopes/tenant-a/js/debug-id/c941a2f6-1b7e-4d2a-9c0f-3a5b8e7d6f10/sourcemap");
  }

  @Test
  void withoutTheMinifiedFileTheGuessedMapIsTriedFullUrlFirstThenPathOnly() throws IOException {
    ModuleRef ref = ref("global", "1.0", "web", URL + "?v=2");
    assertThat(locator.keys(ref))
        .containsExactly(
            JsSymbolKeys.releaseFile("1.0", "web", URL + ".map"),
            JsSymbolKeys.releaseFile("1.0", "web", "~/static/app.min.js.map"));
    put(JsSymbolKeys.releaseFile("1.0", "web", "~/static/app.min.js.map"), MAP);
    assertThat(read(locator.fetch(ref, chain()))).isEqualTo(MAP);
  }

  @Test
  void theMinifiedFilesSourceMappingUrlWinsOverTheGuess() throws IOException {
    ModuleRef ref = ref("global", "2.0", null, URL);
    put(
        JsSymbolKeys.releaseFile("2.0", null, "~/static/app.min.js"),
        "f();\n//# sourceMappingURL=../maps/app.js.map\n");
    put(JsSymbolKeys.releaseFile("2.0", null, "~/maps/app.js.map"), MAP);
    put(JsSymbolKeys.releaseFile("2.0", null, "~/static/app.min.js.map"), "{\"not\":\"this one\"}");
    assertThat(read(locator.fetch(ref, chain()))).isEqualTo(MAP);
  }

  @Test
  void aSourceMappingUrlWhoseMapIsAbsentFallsBackToTheGuess() throws IOException {
    ModuleRef ref = ref("global", "2.1", null, URL);
    put(JsSymbolKeys.releaseFile("2.1", null, URL), "f();\n//# sourceMappingURL=gone.map\n");
    put(JsSymbolKeys.releaseFile("2.1", null, URL + ".map"), MAP);
    assertThat(read(locator.fetch(ref, chain()))).isEqualTo(MAP);
  }

  @Test
  void anInlineDataUrlMapIsUsedAsIs() throws IOException {
    ModuleRef ref = ref("global", "3.0", null, URL);
    String b64 = Base64.getEncoder().encodeToString(MAP.getBytes(StandardCharsets.UTF_8));
    put(
        JsSymbolKeys.releaseFile("3.0", null, "~/static/app.min.js"),
        "f();\n//# sourceMappingURL=data:application/json;charset=utf-8;base64," + b64 + "\n");
    FetchResult r = locator.fetch(ref, chain());
    assertThat(((FetchResult.Found) r).location()).endsWith("(inline sourcemap)");
    assertThat(read(r)).isEqualTo(MAP);
  }

  @Test
  void scopedFilesAreLookedUpUnderTheScopeOnly() throws IOException {
    put(JsSymbolKeys.releaseFile("4.0", null, "~/static/app.min.js.map"), MAP); // global copy
    FetchResult r = locator.fetch(ref("tenant-b", "4.0", null, URL), chain());
    assertThat(r).isInstanceOf(FetchResult.NotFound.class);
    assertThat(((FetchResult.NotFound) r).tried()).contains("scopes/tenant-b/js/release/4.0/_/");
    put("scopes/tenant-b/" + JsSymbolKeys.releaseFile("4.0", null, "~/static/app.min.js.map"), MAP);
    assertThat(read(locator.fetch(ref("tenant-b", "4.0", null, URL), chain()))).isEqualTo(MAP);
  }

  @Test
  void nothingFoundListsEveryObjectTriedAndATransientFailureIsNotMissing() {
    FetchResult r = locator.fetch(ref("global", "5.0", null, URL), chain());
    assertThat(r).isInstanceOf(FetchResult.NotFound.class);
    String tried = ((FetchResult.NotFound) r).tried();
    assertThat(tried).contains("%2Fstatic%2Fapp.min.js,").contains("app.min.js.map");

    List<String> asked = new ArrayList<>();
    SymbolSource flaky =
        source(
            "flaky",
            key -> {
              asked.add(key);
              return new FetchResult.Failed(key, "503");
            });
    FetchResult f = locator.fetch(ref("global", "5.0", null, URL), new SourceChain(List.of(flaky)));
    assertThat(f).isInstanceOf(FetchResult.Failed.class);
    assertThat(asked).allMatch(k -> k.startsWith("js/release/5.0/_/"));
  }

  @Test
  void theMinifiedFileComesAlongWithTheMapForFunctionScopes() throws IOException {
    String id = "c941a2f6-1b7e-4d2a-9c0f-3a5b8e7d6f10";
    ModuleRef byId = new ModuleRef("global", TableKind.JS, id);
    put(JsSymbolKeys.sourcemapByDebugId(id), MAP);
    FetchResult alone = locator.fetch(byId, chain());
    assertThat(((FetchResult.Found) alone).companion()).isNull(); // no minified file stored
    read(alone);
    put(JsSymbolKeys.minifiedByDebugId(id), "function f(){}\n");
    FetchResult withMin = locator.fetch(byId, chain());
    assertThat(new String(((FetchResult.Found) withMin).companion(), StandardCharsets.UTF_8))
        .isEqualTo("function f(){}\n");
    assertThat(read(withMin)).isEqualTo(MAP);

    // by release: the minified file read to find the map is the companion
    ModuleRef byRelease = ref("global", "7.0", null, URL);
    String minified = "g();\n//# sourceMappingURL=app.min.js.map\n";
    put(JsSymbolKeys.releaseFile("7.0", null, URL), minified);
    put(JsSymbolKeys.releaseFile("7.0", null, URL + ".map"), MAP);
    FetchResult rel = locator.fetch(byRelease, chain());
    assertThat(new String(((FetchResult.Found) rel).companion(), StandardCharsets.UTF_8))
        .isEqualTo(minified);
    assertThat(read(rel)).isEqualTo(MAP);

    // a transient failure on the debug id's minified file fails the fetch (retried, not missing)
    SymbolSource minifiedDown =
        source(
            "half-down",
            key ->
                key.endsWith("/minified")
                    ? new FetchResult.Failed(key, "503")
                    : new FileSystemSource(root).fetch(key));
    assertThat(locator.fetch(byId, new SourceChain(List.of(minifiedDown))))
        .isInstanceOf(FetchResult.Failed.class);
  }

  @Test
  void theMinifiedFilesDebugIdCommentLeadsToTheDebugIdLayout() throws IOException {
    ModuleRef ref = ref("global", "6.0", null, URL);
    put(
        JsSymbolKeys.releaseFile("6.0", null, URL),
        "f();\n".repeat(50_000)
            + "//# debugId=85314830-023f-4cf1-a267-535f4e37bb17\n//# sourceMappingURL=app.min.js.map\n");
    put("js/debug-id/85314830-023f-4cf1-a267-535f4e37bb17/sourcemap", MAP);
    assertThat(read(locator.fetch(ref, chain()))).isEqualTo(MAP);
  }

  @Test
  void onlyTheTrailingCommentsOfALargeMinifiedFileAreDecoded() {
    byte[] file =
        ("x".repeat(100_000) + "\n//# sourceMappingURL=a.map\n").getBytes(StandardCharsets.UTF_8);
    assertThat(JsModuleLocator.tail(file)).isEqualTo("//# sourceMappingURL=a.map\n");
    assertThat(JsModuleLocator.tail("x".repeat(10_000).getBytes(StandardCharsets.UTF_8)))
        .hasSize(4096);
  }

  @Test
  void theMinifiedFileIsCappedByTheHeapAsWellAsAt64Mb() {
    assertThat(JsModuleLocator.minifiedCap(4L << 30)).isEqualTo(JsModuleLocator.MAX_MINIFIED_BYTES);
    assertThat(JsModuleLocator.minifiedCap(512L << 20)).isEqualTo(64 << 20);
    assertThat(JsModuleLocator.minifiedCap(128L << 20)).isEqualTo(16 << 20);
  }
}
