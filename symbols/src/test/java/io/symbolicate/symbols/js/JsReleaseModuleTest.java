package io.symbolicate.symbols.js;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.symbols.id.DebugIdentifiers.InvalidIdentifierException;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsReleaseModuleTest {

  @Test
  void theKeyIsThreeEncodedSegmentsAndRoundTrips() {
    JsReleaseModule m =
        JsReleaseModule.ofFrame(
            "app@1.0", "web", "https://cdn.example.com/static/app.min.js?v=3#L1");
    // without fragment and query (a per-load cache-buster would make every load a module)
    assertThat(m.url()).isEqualTo("https://cdn.example.com/static/app.min.js");
    assertThat(m.key())
        .isEqualTo("release/app%401.0/web/https%3A%2F%2Fcdn.example.com%2Fstatic%2Fapp.min.js");
    assertThat(JsReleaseModule.parse(m.key())).isEqualTo(m);
    assertThat(JsReleaseModule.isReleaseKey(m.key())).isTrue();
    // usable as a module reference (no '|' or NUL)
    assertThat(new ModuleRef("global", TableKind.JS, m.key()).toString())
        .startsWith("global|J|release/");
  }

  @Test
  void noDistIsAnUnderscoreAndAsyncFramesAreTheirUrl() {
    JsReleaseModule m = JsReleaseModule.ofFrame("1.0", "", "async https://a.example/x.js");
    assertThat(m.dist()).isNull();
    assertThat(m.url()).isEqualTo("https://a.example/x.js");
    assertThat(m.key()).isEqualTo("release/1.0/_/https%3A%2F%2Fa.example%2Fx.js");
    assertThat(JsReleaseModule.parse(m.key()).dist()).isNull();
  }

  @Test
  void hostileReleasesCannotAddSegments() {
    JsReleaseModule m = JsReleaseModule.ofFrame("../../etc/x", "a/b", "/static/app.js");
    // "..%2F" inside one segment is a name, not a path step: the separators stay the three of the
    // layout
    assertThat(m.key().split("/", -1)).hasSize(4).doesNotContain("..", ".");
    assertThat(m.key()).isEqualTo("release/..%2F..%2Fetc%2Fx/a%2Fb/%2Fstatic%2Fapp.js");
    assertThat(JsReleaseModule.parse(m.key())).isEqualTo(m);
  }

  @Test
  void framesWithoutAUrlOrEventsWithoutAReleaseHaveNoModule() {
    assertThat(JsReleaseModule.ofFrame(null, null, "https://a.example/x.js")).isNull();
    assertThat(JsReleaseModule.ofFrame("", null, "https://a.example/x.js")).isNull();
    assertThat(JsReleaseModule.ofFrame("1.0", null, "<anonymous>")).isNull();
    assertThat(JsReleaseModule.ofFrame("1.0", null, "[native code]")).isNull();
    assertThat(JsReleaseModule.ofFrame("1.0", null, "")).isNull();
    assertThat(JsReleaseModule.ofFrame("1.0", null, "app.js")).isNull();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "https://cdn.example.com/static/../../etc/passwd",
        "https://cdn.example.com/static/%2e%2e/secret.js",
        "https://cdn.example.com/static/%2E%2E/secret.js",
        "https://cdn.example.com/static/.%2e/secret.js",
        "https://cdn.example.com/./app.js",
        "/static/../app.js",
        "https://cdn.example.com/static\\..\\app.js",
        "https://cdn.example.com/app.js\u0000.map",
        "https://cdn.example.com/a\u0007pp.js",
        "https://cdn.example.com/a\u2028pp.js",
        "https://cdn.example.com/a\npp.js"
      })
  void pathTricksAndControlCharactersAreRefused(String url) {
    assertThatThrownBy(() -> JsReleaseModule.ofFrame("1.0", null, url))
        .isInstanceOf(InvalidIdentifierException.class)
        .hasMessageContaining("frame URL");
  }

  @Test
  void dotsInsideNamesAndQueriesAreFine() {
    assertThat(
            JsReleaseModule.ofFrame("1.0", null, "https://cdn.example.com/a..b/app.min.js?x=../y")
                .url())
        .isEqualTo("https://cdn.example.com/a..b/app.min.js");
    // a key with a query, as an older version wrote them (symbols.missing), still parses
    JsReleaseModule old = new JsReleaseModule("1.0", null, "https://cdn.example.com/a.js?x=../y");
    assertThat(JsReleaseModule.parse(old.key())).isEqualTo(old);
  }

  @Test
  void badReleasesDistsAndLengthsAreRefused() {
    String url = "https://a.example/x.js";
    assertThatThrownBy(() -> JsReleaseModule.ofFrame("1.0\u0000", null, url))
        .hasMessageContaining("release contains a control");
    assertThatThrownBy(() -> JsReleaseModule.ofFrame("1.0", "w\teb", url))
        .hasMessageContaining("dist contains a control");
    assertThatThrownBy(() -> JsReleaseModule.ofFrame("..", null, url))
        .hasMessageContaining("dot segment");
    assertThatThrownBy(() -> JsReleaseModule.ofFrame("   ", null, url))
        .hasMessageContaining("release is empty");
    assertThatThrownBy(() -> JsReleaseModule.ofFrame("r".repeat(201), null, url))
        .hasMessageContaining("longer than");
    assertThatThrownBy(
            () -> JsReleaseModule.ofFrame("1.0", null, "https://a.example/" + "x".repeat(2100)))
        .hasMessageContaining("longer than");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "release/1.0/_",
        "release/1.0/_/x/y",
        "release/1.0/_/%2",
        "release/1.0/_/%zz",
        "release/1.0/_/%2F%2E%2E%2Fx.js",
        "release/1.0/_/%2Fa%00.js",
        "release/%C3%28/_/%2Fa.js",
        "release/1.0/_/%2fstatic%2fapp.js",
        "c941a2f6-1b7e-4d2a-9c0f-3a5b8e7d6f10"
      })
  void keysFromTopicsAreRevalidated(String key) {
    assertThatThrownBy(() -> JsReleaseModule.parse(key))
        .isInstanceOf(InvalidIdentifierException.class);
  }
}
