package io.symbolicate.topology.http.nativecode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.topology.http.ApiException;
import io.symbolicate.topology.http.Json;
import java.io.IOException;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/**
 * Mozilla's v5 and v4 shapes without a server: what they refuse as they parse, and (with the
 * stream's native step over in-memory tables) what they answer.
 */
class MozillaShapesTest {
  static final int LIMIT = 1000;

  final MozillaV5Shape v5 = new MozillaV5Shape(LIMIT);
  final MozillaV4Shape v4 = new MozillaV4Shape(LIMIT);

  static JsonNode json(String s) throws IOException {
    return Json.MAPPER.readTree(s);
  }

  static String emptyStacks(int n) {
    return String.join(",", Collections.nCopies(n, "[]"));
  }

  @Test
  void emptyStacksAndModulesCountTowardTheFrameLimit() throws IOException {
    // no frame at all, yet each empty stack is a list in the request, the event and the answer
    JsonNode stacks = json("{\"memoryMap\": [], \"stacks\": [" + emptyStacks(LIMIT + 1) + "]}");
    assertThatThrownBy(() -> v5.parse(stacks)).isInstanceOf(ApiException.class)
        .hasMessage("request has 0 frames, " + (LIMIT + 1) + " stacks and 0 modules; together they may be at most "
            + LIMIT + " (http.max.frames)")
        .satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(413));
    assertThatThrownBy(() -> v4.parse(stacks)).isInstanceOf(ApiException.class)
        .satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(413));

    // summed over the jobs of a v5 request
    String job = "{\"memoryMap\": [[\"a.pdb\", \"AB\"]], \"stacks\": [[[0, 1], [0, 2]], " + emptyStacks(97) + "]}";
    JsonNode jobs = json("{\"jobs\": [" + String.join(",", Collections.nCopies(10, job)) + "]}");
    assertThatThrownBy(() -> v5.parse(jobs)).isInstanceOf(ApiException.class)
        .hasMessageStartingWith("request has 20 frames, 980 stacks and 10 modules;");

    // unused memory-map entries too
    StringBuilder mm = new StringBuilder();
    for (int i = 0; i < LIMIT; i++) {
      mm.append(i == 0 ? "" : ",").append("[\"m").append(i).append(".pdb\", \"AB\"]");
    }
    assertThatThrownBy(() -> v5.parse(json("{\"memoryMap\": [" + mm + "], \"stacks\": [[[0, 1]]]}")))
        .isInstanceOf(ApiException.class)
        .hasMessageStartingWith("request has 1 frames, 1 stacks and " + LIMIT + " modules;");
  }

  @Test
  void requestsWithinTheLimitAreParsed() throws IOException {
    // exactly the limit: 9 jobs of 111 (1 module, 10 stacks, 100 frames) and one of 1
    StringBuilder frames = new StringBuilder();
    for (int i = 0; i < 10; i++) {
      frames.append(i == 0 ? "" : ",").append("[0, ").append(i).append(']');
    }
    String stack = "[" + frames + "]";
    String job = "{\"memoryMap\": [[\"a.pdb\", \"AB\"]], \"stacks\": [" + String.join(",", Collections.nCopies(10, stack))
        + "]}";
    String jobs = String.join(",", Collections.nCopies(9, job)) + ", {\"memoryMap\": [], \"stacks\": [[]]}";
    MozillaRequest r = v5.parse(json("{\"jobs\": [" + jobs + "]}"));
    assertThat(r.jobs()).hasSize(10);
    assertThat(r.jobs().get(0).stacks()).hasSize(10).allSatisfy(s -> assertThat(s).hasSize(10));

    MozillaRequest one = v4.parse(json("{\"memoryMap\": [[\"a.pdb\", \"AB\"]], \"stacks\": [[[0, 1]], []]}"));
    assertThat(one.jobs().get(0).stacks()).hasSize(2);
  }
}
