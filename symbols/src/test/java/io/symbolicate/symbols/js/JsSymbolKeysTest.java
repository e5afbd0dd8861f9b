package io.symbolicate.symbols.js;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.symbols.js.JsSymbolKeys.Candidate;
import io.symbolicate.symbols.js.JsSymbolKeys.Request;
import io.symbolicate.symbols.js.JsSymbolKeys.Via;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsSymbolKeysTest {

  @Test
  void sourceMappingUrlOfMinifiedFilesResolvesAsSymbolicatorDid() throws Exception {
    // snapshot data.sourcemap of symbolicator 01 and 02 (the latter uses the legacy //@ form)
    String min1 = JsPeerCasesTest.read("getsentry-symbolicator/01_sourcemap_expansion/test.min.js");
    String min2 =
        JsPeerCasesTest.read("getsentry-symbolicator/02_sourcemap_source_expansion/file.min.js");
    assertThat(
            SourceUrls.resolve(
                "http://example.com/test.min.js", JsSymbolKeys.sourceMappingUrl(min1)))
        .isEqualTo("http://example.com/test.min.js.map");
    assertThat(
            SourceUrls.resolve(
                "http://example.com/file.min.js", JsSymbolKeys.sourceMappingUrl(min2)))
        .isEqualTo("http://example.com/file.min.js.map");
    List<Candidate> c =
        JsSymbolKeys.sourcemapCandidates(
            new Request(null, "1.0", null, "http://example.com/test.min.js"), min1);
    assertThat(c).extracting(Candidate::via).containsOnly(Via.SOURCE_MAPPING_URL);
    assertThat(c)
        .extracting(Candidate::objectKey)
        .containsExactly(
            "js/release/1.0/_/http%3A%2F%2Fexample.com%2Ftest.min.js.map",
            "js/release/1.0/_/~%2Ftest.min.js.map");
  }

  @Test
  void debugIdComesFirstAndIsNormalised() {
    List<Candidate> c =
        JsSymbolKeys.sourcemapCandidates(
            new Request(
                "C0FFEE00112233445566778899AABBCC",
                "rel",
                "web",
                "https://cdn.example.com/a/app.js?v=2#x"),
            null);
    assertThat(c.get(0))
        .isEqualTo(
            new Candidate(
                Via.DEBUG_ID, "js/debug-id/c0ffee00-1122-3344-5566-778899aabbcc/sourcemap", null));
    // without the minified file, the map URL is guessed from the frame URL
    assertThat(c.subList(1, c.size()))
        .extracting(Candidate::url)
        .containsExactly("https://cdn.example.com/a/app.js.map", "~/a/app.js.map");
    assertThat(c.get(1).objectKey())
        .isEqualTo("js/release/rel/web/https%3A%2F%2Fcdn.example.com%2Fa%2Fapp.js.map");
    // the same guess for a frame URL without a query string (its variants are fewer)
    assertThat(
            JsSymbolKeys.sourcemapCandidates(
                new Request(null, "rel", null, "https://cdn.example.com/a/app.js"), null))
        .extracting(Candidate::url)
        .containsExactly("https://cdn.example.com/a/app.js.map", "~/a/app.js.map");
    // the //# debugId= comment of a minified file counts as a debug ID too
    List<Candidate> viaComment =
        JsSymbolKeys.sourcemapCandidates(
            new Request(null, null, null, null),
            "x();\n//# debugId=85314830-023f-4cf1-a267-535f4e37bb17\n//# sourceMappingURL=x.js.map\n");
    assertThat(viaComment)
        .containsExactly(
            new Candidate(
                Via.DEBUG_ID, "js/debug-id/85314830-023f-4cf1-a267-535f4e37bb17/sourcemap", null));
    assertThat(JsSymbolKeys.normalizeDebugId("not-a-uuid")).isNull();
    assertThatThrownBy(() -> JsSymbolKeys.sourcemapByDebugId("../../etc"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void urlVariantsFollowTheTildeConvention() {
    assertThat(JsSymbolKeys.urlVariants("async https://example.com/static/app.min.js?v=1#frag"))
        .containsExactly(
            "https://example.com/static/app.min.js?v=1",
            "https://example.com/static/app.min.js",
            "~/static/app.min.js?v=1",
            "~/static/app.min.js");
    assertThat(JsSymbolKeys.urlVariants("app:///main.js"))
        .containsExactly("app:///main.js", "~/main.js");
    assertThat(JsSymbolKeys.minifiedCandidates(new Request(null, "r", null, "http://h/x.js")))
        .extracting(Candidate::objectKey)
        .containsExactly("js/release/r/_/http%3A%2F%2Fh%2Fx.js", "js/release/r/_/~%2Fx.js");
    // no segment can climb out of its prefix
    assertThat(JsSymbolKeys.releaseFile("..", "..", "../x"))
        .isEqualTo("js/release/%2E%2E/%2E%2E/..%2Fx");
  }

  @Test
  void framePositionsAreConvertedOnceAtTheEdge() {
    assertThat(JsFramePosition.fromFrame(1, 39)).isEqualTo(new JsFramePosition(0, 38));
    assertThat(JsFramePosition.fromFrame(7, null)).isEqualTo(new JsFramePosition(6, 0));
    assertThatThrownBy(() -> JsFramePosition.fromFrame(0, 1))
        .hasMessageContaining("lineno must be >= 1");
    // Symbolicator subtracts one with saturation: colno 0 is column 0, like no colno at all
    assertThat(JsFramePosition.fromFrame(1, 0)).isEqualTo(new JsFramePosition(0, 0));
    assertThatThrownBy(() -> JsFramePosition.fromFrame(1, -1))
        .hasMessageContaining("colno must be >= 0");
  }

  @Test
  void sourceUrlsJoinAndResolve() {
    // mozilla/tc39: sourceRoot joined with "/"; empty root ignored
    assertThat(SourceUrls.joinRoot("/the/root", "one.js")).isEqualTo("/the/root/one.js");
    assertThat(SourceUrls.joinRoot("http://example.com", "source1.js"))
        .isEqualTo("http://example.com/source1.js");
    assertThat(SourceUrls.joinRoot("", "one.js")).isEqualTo("one.js");
    assertThat(SourceUrls.joinRoot("some-dir/", "/some-path.js"))
        .isEqualTo("some-dir/some-path.js");
    assertThat(SourceUrls.joinRoot("x", "webpack:///./a.js")).isEqualTo("webpack:///./a.js");
    assertThat(SourceUrls.resolve("http://example.com/js/app.min.js", "../src/a.js"))
        .isEqualTo("http://example.com/src/a.js");
    assertThat(SourceUrls.resolve("http://example.com/js/app.min.js", "/abs.js"))
        .isEqualTo("http://example.com/abs.js");
    assertThat(SourceUrls.resolve("http://example.com/js/app.min.js", "//cdn.x/y.js"))
        .isEqualTo("http://cdn.x/y.js");
    assertThat(SourceUrls.resolve("http://example.com/app.min.js", "webpack:///./src/x.tsx"))
        .isEqualTo("webpack:///./src/x.tsx");
    assertThat(SourceUrls.resolve("dist/app.js.map", "../src/a.js")).isEqualTo("src/a.js");
    assertThat(SourceUrls.resolve("app.js.map", "../src/a.js")).isEqualTo("../src/a.js");
    assertThat(SourceUrls.resolve(null, "a.js")).isEqualTo("a.js");
  }
}
