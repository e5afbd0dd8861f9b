package io.symbolicate.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.api.js.JsApiHandler;
import io.symbolicate.api.jvm.JvmApiHandler;
import io.symbolicate.api.nativecode.MozillaV5Handler;
import io.symbolicate.schema.CrashEvent;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** What the endpoint counts against {@code http.max.frames} and claims heap for, per platform. */
class ApiFramesTest {

  @Test
  void emptyStacksAndUnusedModulesAreCountedOnEveryPlatform() throws IOException {
    MozillaV5Handler v5 = new MozillaV5Handler(DetachedSymbolication.withMaxFrames(1000));
    CrashEvent nat =
        v5.events(
                v5.parse(
                    Json.MAPPER.readTree(
                        """
        {"memoryMap": [["a.pdb", "AB"], ["b.pdb", "CD"]], "stacks": [[[0, 1], [1, 2], [0, 3]], [], []]}""")),
                "global")
            .get(0);
    assertThat(ApiFrames.size(nat)).isEqualTo(new ApiFrames.Size(3, 3, 2));
    assertThat(ApiFrames.size(nat).total()).isEqualTo(8);
    assertThat(ApiFrames.size(nat).exceeds(3)).isFalse();
    assertThat(ApiFrames.size(nat).exceeds(2)).isTrue();
    assertThat(ApiFrames.count(nat)).isEqualTo(3);

    JsApiHandler js = new JsApiHandler(DetachedSymbolication.withMaxFrames(20_000));
    CrashEvent jsEvent =
        js.events(
                js.parse(
                    Json.MAPPER.readTree(
                        """
        {"stacktraces": [{"frames": [{"abs_path": "http://x/a.js", "lineno": 1}]}, {"frames": []}],
         "modules": [{"type": "sourcemap", "code_file": "http://x/b.js",
                      "debug_id": "c941a2f6-1b7e-4d2a-9c0f-3a5b8e7d6f10"}]}""")),
                "global")
            .get(0);
    assertThat(ApiFrames.size(jsEvent)).isEqualTo(new ApiFrames.Size(1, 2, 1));

    JvmApiHandler jvm = new JvmApiHandler(DetachedSymbolication.withMaxFrames(20_000));
    CrashEvent jvmEvent =
        jvm.events(
                jvm.parse(
                    Json.MAPPER.readTree(
                        """
        {"exceptions": [{"type": "a", "module": "b.c"}], "stacktraces": [{"frames": []}],
         "modules": [{"type": "proguard", "uuid": "5d3f7b0e-1c2a-4e6b-9a8d-0f1e2d3c4b5a"}]}""")),
                "global")
            .get(0);
    assertThat(ApiFrames.size(jvmEvent)).isEqualTo(new ApiFrames.Size(0, 2, 1));

    assertThat(ApiFrames.Size.ZERO.plus(ApiFrames.size(nat)).plus(ApiFrames.size(jsEvent)))
        .isEqualTo(new ApiFrames.Size(4, 5, 3));
  }
}
