package io.symbolicate.topology.decode;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.NativeFrame;
import io.symbolicate.schema.json.RecordJson;
import io.symbolicate.testkit.events.SampleEvents;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * RecordJson writes the JSON the input reads: an event written with it reads back equal with
 * the JSON input's reader, whatever its platform, unsigned addresses above 2^63 included.
 */
class RecordJsonRoundTripTest {
  @Test
  void eventsReadBackEqual() throws Exception {
    CrashEvent high = SampleEvents.nativeEvent("high");
    high.getNative$()
        .getThreads()
        .get(0)
        .setFrames(
            List.of(
                NativeFrame.newBuilder()
                    .setInstructionAddr(0xffffffff81000010L)
                    .setTrust("context")
                    .build()));
    JsonEventReader reader = new JsonEventReader();
    for (CrashEvent e :
        List.of(
            SampleEvents.nativeEvent("n"),
            SampleEvents.jsEvent("j"),
            SampleEvents.jvmEvent("v"),
            high)) {
      for (boolean pretty : new boolean[] {false, true}) {
        String json = RecordJson.write(e, pretty);
        assertThat(reader.read(json.getBytes(StandardCharsets.UTF_8))).as(json).isEqualTo(e);
      }
    }
  }

  @Test
  void fieldsAreTheSchemasNamesWithUnionsUnwrapped() throws Exception {
    var tree = new ObjectMapper().readTree(RecordJson.write(SampleEvents.nativeEvent("n"), false));
    assertThat(tree.get("platform").asText()).isEqualTo("native");
    assertThat(tree.get("received_at").asText()).isEqualTo("2026-11-22T10:00:00Z");
    assertThat(tree.get("dist").isNull()).isTrue();
    assertThat(tree.get("native").get("arch").isTextual()).isTrue();
    assertThat(tree.has("javascript")).isTrue();
  }
}
