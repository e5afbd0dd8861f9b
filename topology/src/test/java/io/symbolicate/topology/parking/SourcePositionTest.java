package io.symbolicate.topology.parking;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SourcePositionTest {

  @Test
  void aParkedKeyNamesItsInputPositionEvenWithDashesInTheTopic() {
    assertThat(ParkingProcessor.SourcePosition.parse("crash-events.raw-2-41"))
        .isEqualTo(new ParkingProcessor.SourcePosition("crash-events.raw", 2, 41L));
    assertThat(ParkingProcessor.SourcePosition.parse("t-0-9223372036854775807").offset())
        .isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void keysWithoutAPositionParseAsNone() {
    assertThat(ParkingProcessor.SourcePosition.parse("event:e-1-2:1700000000000")).isNull();
    assertThat(ParkingProcessor.SourcePosition.parse("-1-2")).isNull();
    assertThat(ParkingProcessor.SourcePosition.parse("t-x-2")).isNull();
    assertThat(ParkingProcessor.SourcePosition.parse("t2")).isNull();
  }
}
