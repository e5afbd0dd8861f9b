package io.symbolicate.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.ErrorKind;
import org.junit.jupiter.api.Test;

class DeadLettersTest {

  @Test
  void keepsTheOriginalWholeAndBoundsWhatItQuotes() {
    byte[] value = new byte[300_000];
    String longId = "i".repeat(300_000);
    DeadLetter d = DeadLetters.of("k".getBytes(), value, "raw", 2, 41L, ErrorKind.invalid_event,
        "m".repeat(5000), longId, 7L);
    assertThat(d.getEventId()).hasSize(DeadLetters.MAX_EVENT_ID + 3).startsWith("iii").endsWith("...");
    assertThat(d.getMessage()).hasSize(2003).endsWith("...");
    assertThat(d.getOriginalValue().remaining()).isEqualTo(300_000);
    assertThat(d.getOriginalSize()).isEqualTo(300_000);
    assertThat(d.getSourcePartition()).isEqualTo(2);
    assertThat(d.getSourceOffset()).isEqualTo(41L);

    DeadLetter shortOne = DeadLetters.of(null, null, null, ErrorKind.too_large, null, "e-1", 7L);
    assertThat(shortOne.getEventId()).isEqualTo("e-1");
    assertThat(shortOne.getMessage()).isEqualTo("too_large");
    assertThat(shortOne.getSourceOffset()).isEqualTo(-1L);
    assertThat(DeadLetters.of(null, null, null, ErrorKind.undecodable, "x", null, 7L).getEventId()).isNull();
  }
}
