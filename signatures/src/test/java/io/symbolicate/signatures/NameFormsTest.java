package io.symbolicate.signatures;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The normalized forms a caller keeps with a function name (NameForms): kept only when they do
 * not depend on the frame's line, and only for the lists that made them. That a kept form is
 * siggen's is checked over the peer cases (SiggenPeerTest's c_normalize_frame cases run with
 * and without kept forms).
 */
class NameFormsTest {
  private static SignatureLists lists(String lineNumbers) throws SignatureListException {
    return SignatureLists.of(
        Map.of(
            SignatureLists.IRRELEVANT, List.of("ignored1"),
            SignatureLists.PREFIX, List.of("pre1"),
            SignatureLists.LINE_NUMBERS, List.of(lineNumbers),
            SignatureLists.SENTINELS, List.of("sentinel")));
  }

  private static String normalize(
      NativeSignatureTool tool, String function, NameForms forms, String file, long line) {
    return tool.normalizeFrame("libxul.so", function, forms, file, line, null, null, List.of());
  }

  @Test
  void aFormWithoutTheLineIsKeptAndReadBack() throws Exception {
    SignatureLists lists = lists("fnNeedNumber");
    NativeSignatureTool tool = new NativeSignatureTool(lists);
    String function =
        "class JSObject* DoCallback<JSObject*>(class JS::CallbackTracer*, class JSObject**, const char*)";
    NameForms forms = new NameForms();
    String made = normalize(tool, function, forms, "callback.cpp", 12);
    // siggen's test_normalize_cpp_function case (fixtures/siggen/derived/parametrized_cases.json)
    assertThat(made).isEqualTo("DoCallback<T>");
    assertThat(forms.normalized(lists, false)).isEqualTo(made);
    assertThat(forms.normalized(lists, true)).isNull(); // Rust's form is another
    assertThat(normalize(tool, function, forms, "callback.cpp", 99)).isSameAs(made);
    // a Rust frame of the same name (a source path ending in .rs) makes and keeps its own form
    assertThat(normalize(tool, function, forms, "/src/callback.rs", 12)).isNotNull();
    assertThat(forms.normalized(lists, true)).isNotNull();
    assertThat(forms.normalized(lists, false)).isNull();
  }

  @Test
  void aPageNameKeepsItsFormInItsOwnSlot() throws Exception {
    SignatureLists lists = lists("fnNeedNumber");
    NativeSignatureTool tool = new NativeSignatureTool(lists);
    String function =
        "class JSObject* DoCallback<JSObject*>(class JS::CallbackTracer*, class JSObject**, const char*)";
    KeptSlot pageName = new KeptSlot();
    String made =
        tool.normalizeFrame(
            "libxul.so", function, pageName, "callback.cpp", 12L, null, null, List.of());
    assertThat(made).isEqualTo("DoCallback<T>");
    assertThat(pageName.kept()).isNotNull(); // the form, without a holder of its own
    assertThat(NameForms.normalized(pageName, lists, false)).isSameAs(made);
    assertThat(
            tool.normalizeFrame(
                "libxul.so", function, pageName, "callback.cpp", 99L, null, null, List.of()))
        .isSameAs(made);
    // another consumer's value in the slot is not taken for a form
    pageName.keep("something else");
    assertThat(NameForms.normalized(pageName, lists, false)).isNull();
  }

  @Test
  void aFormThatCarriesTheLineIsNotKept() throws Exception {
    SignatureLists lists = lists("fnNeedNumber");
    NativeSignatureTool tool = new NativeSignatureTool(lists);
    NameForms forms = new NameForms();
    assertThat(normalize(tool, "fnNeedNumber", forms, "a.cpp", 12)).isEqualTo("fnNeedNumber:12");
    assertThat(forms.normalized(lists, false)).isNull();
    assertThat(normalize(tool, "fnNeedNumber", forms, "a.cpp", 13)).isEqualTo("fnNeedNumber:13");
  }

  @Test
  void anotherListsFormIsNotRead() throws Exception {
    NameForms forms = new NameForms();
    SignatureLists without = lists("somethingElse");
    assertThat(normalize(new NativeSignatureTool(without), "fnNeedNumber", forms, "a.cpp", 12))
        .isEqualTo("fnNeedNumber");
    assertThat(forms.normalized(without, false)).isEqualTo("fnNeedNumber");
    // with lists that number it, the kept form of the other lists is not used
    assertThat(
            normalize(
                new NativeSignatureTool(lists("fnNeedNumber")), "fnNeedNumber", forms, "a.cpp", 12))
        .isEqualTo("fnNeedNumber:12");
  }
}
