package io.symbolicate.topology.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.ErrorKind;
import io.symbolicate.schema.serde.WireSerdes;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class DeadLettersTest {

  @Test
  void keepsTheOriginalWholeAndBoundsWhatItQuotes() {
    byte[] value = new byte[300_000];
    String longId = "i".repeat(300_000);
    DeadLetter d =
        DeadLetters.of(
            "k".getBytes(),
            value,
            "raw",
            2,
            41L,
            ErrorKind.invalid_event,
            "m".repeat(5000),
            longId,
            7L);
    assertThat(d.getEventId())
        .hasSize(DeadLetters.MAX_EVENT_ID + 3)
        .startsWith("iii")
        .endsWith("...");
    assertThat(d.getMessage()).hasSize(2003).endsWith("...");
    assertThat(d.getOriginalValue().remaining()).isEqualTo(300_000);
    assertThat(d.getOriginalSize()).isEqualTo(300_000);
    assertThat(d.getSourcePartition()).isEqualTo(2);
    assertThat(d.getSourceOffset()).isEqualTo(41L);

    DeadLetter shortOne = DeadLetters.of(null, null, null, ErrorKind.too_large, null, "e-1", 7L);
    assertThat(shortOne.getEventId()).isEqualTo("e-1");
    assertThat(shortOne.getMessage()).isEqualTo("too_large");
    assertThat(shortOne.getSourceOffset()).isEqualTo(-1L);
    assertThat(DeadLetters.of(null, null, null, ErrorKind.undecodable, "x", null, 7L).getEventId())
        .isNull();
  }

  /**
   * A dead letter larger than its topic takes is cut to fit, saying so, with its whole size kept:
   * refused by the producer, it failed the transaction and the task read the same record again
   * for good (an input batch is checked compressed, so a 20 MB event can get in).
   */
  @Test
  void aDeadLetterLargerThanItsTopicTakesIsCutToFit() throws Exception {
    var serde = WireSerdes.deadLetter();
    byte[] value = new byte[3_000_000];
    Arrays.fill(value, (byte) 'v');
    byte[] key = new byte[1_000];
    DeadLetter d =
        DeadLetters.of(
            key, value, "raw", 0, 9L, ErrorKind.too_large, "event over max.event.bytes", "e-1", 7L);
    int max = 1_000_000;
    byte[] fitted = DeadLetters.encodeFitting(d, max, serde);
    assertThat(fitted.length).isLessThanOrEqualTo(max);
    DeadLetter back = serde.decode(fitted);
    assertThat(back.getOriginalSize()).isEqualTo(3_000_000);
    assertThat(back.getOriginalValue().remaining()).isGreaterThan(max - 10_000).isLessThan(max);
    assertThat(back.getOriginalKey().remaining()).isEqualTo(1_000);
    assertThat(back.getMessage())
        .startsWith("event over max.event.bytes (original value cut to ")
        .contains("of 3000000 bytes");
    assertThat(back.getSourceOffset()).isEqualTo(9L);
    // one that fits is as it was
    DeadLetter small =
        DeadLetters.of(key, new byte[10], "raw", 0, 9L, ErrorKind.too_large, "m", "e-1", 7L);
    assertThat(DeadLetters.encodeFitting(small, max, serde)).isEqualTo(serde.encode(small));
    // the serde of the topology's dead-letter sinks does the same
    assertThat(DeadLetters.fittingSerde(max).serializer().serialize("dlq", d).length)
        .isLessThanOrEqualTo(max);
    // a huge key is cut too
    DeadLetter bigKey =
        DeadLetters.of(
            new byte[2_000_000], value, "raw", 0, 9L, ErrorKind.too_large, "m", null, 7L);
    DeadLetter keyBack = serde.decode(DeadLetters.encodeFitting(bigKey, max, serde));
    assertThat(keyBack.getOriginalKey().remaining()).isLessThan(max);
    assertThat(keyBack.getMessage()).contains("key to ");
  }
}
