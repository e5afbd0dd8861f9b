package io.symbolicate.topology.decode;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.Platform;
import io.symbolicate.testkit.events.SampleEvents;
import org.junit.jupiter.api.Test;

class EventValidatorTest {
  private final EventValidator v = new EventValidator(100);

  @Test
  void acceptsTheSamples() {
    assertThatCode(() -> v.validate(SampleEvents.nativeEvent("a"))).doesNotThrowAnyException();
    assertThatCode(() -> v.validate(SampleEvents.jsEvent("b"))).doesNotThrowAnyException();
    assertThatCode(() -> v.validate(SampleEvents.jvmEvent("c"))).doesNotThrowAnyException();
  }

  @Test
  void rejectsEventLevelProblems() {
    CrashEvent blankId = SampleEvents.jsEvent(" ");
    assertThatThrownBy(() -> v.validate(blankId)).hasMessageContaining("event_id is empty");
    CrashEvent longId = SampleEvents.jsEvent("x".repeat(300));
    assertThatThrownBy(() -> v.validate(longId)).hasMessageContaining("longer than 256");
    CrashEvent nul = SampleEvents.jsEvent("a\u0000b");
    assertThatThrownBy(() -> v.validate(nul))
        .hasMessageContaining("event_id contains control character U+0000 at index 1");
    CrashEvent newline = SampleEvents.jsEvent("line\nforged");
    assertThatThrownBy(() -> v.validate(newline)).hasMessageContaining("U+000A");
    CrashEvent c1 = SampleEvents.jsEvent("x\u0085");
    assertThatThrownBy(() -> v.validate(c1)).hasMessageContaining("U+0085");
    CrashEvent badRelease = SampleEvents.jsEvent("r");
    badRelease.setRelease("1.0\u001b[31m");
    assertThatThrownBy(() -> v.validate(badRelease))
        .hasMessageContaining("release contains control character U+001B");
    CrashEvent unicodeId = SampleEvents.jsEvent("événement-✓");
    assertThatCode(() -> v.validate(unicodeId)).doesNotThrowAnyException();
    CrashEvent badScope = SampleEvents.jsEvent("s");
    badScope.setScope("../other-tenant");
    assertThatThrownBy(() -> v.validate(badScope)).hasMessageContaining("scope must match");
    CrashEvent noPayload = SampleEvents.jsEvent("p");
    noPayload.setPlatform(Platform.jvm);
    assertThatThrownBy(() -> v.validate(noPayload))
        .hasMessageContaining("'jvm' payload is missing");
    CrashEvent unknown = SampleEvents.jsEvent("u");
    unknown.setPlatform(Platform.unknown);
    assertThatThrownBy(() -> v.validate(unknown)).hasMessageContaining("unknown platform");
    assertThatThrownBy(() -> v.validate(SampleEvents.hugeEvent("h", 101)))
        .hasMessageContaining("101 frames");
  }
}
