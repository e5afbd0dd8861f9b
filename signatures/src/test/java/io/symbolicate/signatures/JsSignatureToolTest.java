package io.symbolicate.signatures;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Our JavaScript rule (docs/signatures.md): type, then the first meaningful in-app frames. */
class JsSignatureToolTest {
  private static final SignatureGenerator GENERATOR = SignatureGenerator.withDefaultLists();

  @Test
  void functionNamesAreNormalized() {
    assertThat(JsSignatureTool.normalizeFunction("async handleClick")).isEqualTo("handleClick");
    assertThat(JsSignatureTool.normalizeFunction("new Widget")).isEqualTo("Widget");
    assertThat(JsSignatureTool.normalizeFunction("bound bound onLoad")).isEqualTo("onLoad");
    assertThat(JsSignatureTool.normalizeFunction("Foo.bar [as baz]")).isEqualTo("Foo.bar");
    assertThat(JsSignatureTool.normalizeFunction("Object.render")).isEqualTo("render");
    assertThat(JsSignatureTool.normalizeFunction("Module.exports")).isEqualTo("exports");
    assertThat(JsSignatureTool.normalizeFunction("Cart.prototype.add"))
        .isEqualTo("Cart.prototype.add");
    // SpiderMonkey's inferred names: the innermost named function
    assertThat(JsSignatureTool.normalizeFunction("loadPage/onResponse<")).isEqualTo("onResponse");
    assertThat(JsSignatureTool.normalizeFunction("loadPage/<")).isEqualTo("loadPage");
    for (String anonymous :
        new String[] {null, "", "  ", "?", "<anonymous>", "Object.<anonymous>", "anonymous"}) {
      assertThat(JsSignatureTool.normalizeFunction(anonymous))
          .as(String.valueOf(anonymous))
          .isEmpty();
    }
  }

  @Test
  void fileLabelsDropPathQueryAndContentHash() {
    assertThat(
            JsSignatureTool.fileLabel("https://cdn.example.com/static/js/main.3f2a1b9c.js?v=2#x"))
        .isEqualTo("main.js");
    assertThat(JsSignatureTool.fileLabel("webpack:///src/app/cart-5d41402abc4b2a76.min.js"))
        .isEqualTo("cart.min.js");
    assertThat(JsSignatureTool.fileLabel("C:\\app\\index.js")).isEqualTo("index.js");
    assertThat(JsSignatureTool.fileLabel(null)).isEmpty();
  }

  @Test
  void signatureIsTheTypeAndTheFirstTwoMeaningfulInAppFrames() {
    SignatureResult r =
        sign(
            "TypeError",
            List.of(
                frame("captureException", "https://app.example/js/sentry.js", null),
                frame("forEach", "https://app.example/node_modules/lodash/lodash.js", null),
                frame(null, "https://app.example/js/app.js", null),
                frame("Cart.add", "https://app.example/js/cart.js", null),
                frame("Cart.add", "https://app.example/js/cart.js", null),
                frame("Array.forEach", "https://app.example/js/cart.js", null),
                frame("async onClick", "https://app.example/js/ui.js", null),
                frame("main", "https://app.example/js/main.js", null)));
    assertThat(r.signature()).isEqualTo("TypeError | Cart.add | onClick");
    assertThat(r.protoSignature())
        .isEqualTo(
            "captureException | forEach | app.js | Cart.add | Cart.add | Array.forEach | onClick | main");
    assertThat(r.notes()).isEmpty();
  }

  @Test
  void theClientsInAppFlagWinsOverTheFile() {
    SignatureResult r =
        sign(
            "Error",
            List.of(
                frame("vendorHelper", "https://app.example/js/app.js", false),
                frame("libCall", "https://app.example/node_modules/lib/index.js", true),
                frame("mine", "https://app.example/js/app.js", null)));
    assertThat(r.signature()).isEqualTo("Error | libCall | mine");
  }

  @Test
  void withoutNamedInAppFramesTheFileOrFirstFrameIsUsed() {
    SignatureResult byFile =
        sign(
            null,
            List.of(
                frame("dispatch", "https://app.example/node_modules/react-dom/index.js", null),
                frame(null, "https://app.example/static/bundle.0123abcd.js", null)));
    assertThat(byFile.signature()).isEqualTo("Error | bundle.js");
    assertThat(byFile.notes())
        .containsExactly(
            "SignatureGenerationRule: JsSignatureTool: no named in-app frame; using the file of the first in-app frame");
    SignatureResult firstFrame =
        sign(
            "RangeError",
            List.of(
                frame("dispatch", "https://app.example/node_modules/react-dom/index.js", null)));
    assertThat(firstFrame.signature()).isEqualTo("RangeError | dispatch");
    SignatureResult none = sign("RangeError", List.of());
    assertThat(none.signature()).isEqualTo("RangeError | EMPTY: no frame data available");
    assertThat(none.protoSignature()).isEmpty();
  }

  @Test
  void readsJsExceptionFromJsonInEitherFieldNaming() throws Exception {
    CrashData d =
        CrashDataJson.parse(
            """
        {"js_exception": {"type": "ReferenceError", "value": "x is not defined", "frames": [
          {"function": "render", "abs_path": "https://a.example/app.js", "lineno": 3, "colno": 7},
          {"function": "boot", "file": "https://a.example/app.js", "line": 9, "column": 1, "in_app": false},
          {"function": "start", "filename": "app.js"}]}}
        """);
    assertThat(d.jsException.frames().get(0).file()).isEqualTo("https://a.example/app.js");
    assertThat(d.jsException.frames().get(0).column()).isEqualTo(7);
    assertThat(GENERATOR.generate(d).signature()).isEqualTo("ReferenceError | render | start");
  }

  @Test
  void postRulesStillApply() {
    String longName = "x".repeat(400);
    SignatureResult r = sign("Error\twith\ttabs", List.of(frame(longName, "app.js", null)));
    assertThat(r.signature())
        .hasSize(Rules.SIGNATURE_MAX_LENGTH)
        .startsWith("Errorwithtabs | xxx")
        .endsWith("...");
  }

  private static JsFrame frame(String function, String file, Boolean inApp) {
    return new JsFrame(function, file, 1, 1, inApp);
  }

  private static SignatureResult sign(String type, List<JsFrame> frames) {
    return GENERATOR.generate(
        CrashData.builder().jsException(new JsException(type, "message", frames)).build());
  }
}
