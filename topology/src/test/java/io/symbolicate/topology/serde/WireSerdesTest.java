package io.symbolicate.topology.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.ErrorKind;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.topology.demo.SampleEvents;
import io.symbolicate.topology.nativecode.NativeSymbolicator;
import java.nio.ByteBuffer;
import java.time.Instant;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/** One round-trip test per wire type. */
class WireSerdesTest {

  @Test
  void crashEventRoundTripsWithSingleObjectHeader() {
    AvroSerde<CrashEvent> serde = WireSerdes.crashEvent();
    for (CrashEvent e : new CrashEvent[] {SampleEvents.nativeEvent("a"), SampleEvents.jsEvent("b"),
        SampleEvents.jvmEvent("c")}) {
      byte[] bytes = serde.serializer().serialize("t", e);
      assertThat(bytes[0] & 0xff).isEqualTo(0xC3);
      assertThat(bytes[1]).isEqualTo((byte) 0x01);
      assertThat(serde.deserializer().deserialize("t", bytes)).isEqualTo(e);
    }
  }

  @Test
  void symbolicatedEventRoundTrips() {
    SymbolicatedEvent e = new NativeSymbolicator().symbolicate(SampleEvents.nativeEvent("a"), 1_700_000_000_000L);
    AvroSerde<SymbolicatedEvent> serde = WireSerdes.symbolicatedEvent();
    assertThat(serde.deserializer().deserialize("t", serde.serializer().serialize("t", e))).isEqualTo(e);
  }

  @Test
  void deadLetterRoundTripsWithOriginalBytes() {
    DeadLetter d = DeadLetter.newBuilder()
        .setOriginalKey(ByteBuffer.wrap(new byte[] {1, 2}))
        .setOriginalValue(ByteBuffer.wrap(new byte[] {(byte) 0xff, 0, 7}))
        .setOriginalSize(3).setSourceTopic("raw").setSourcePartition(1).setSourceOffset(42)
        .setErrorKind(ErrorKind.undecodable).setMessage("bad").setEventId(null)
        .setFailedAt(Instant.ofEpochMilli(5)).build();
    AvroSerde<DeadLetter> serde = WireSerdes.deadLetter();
    assertThat(serde.deserializer().deserialize("t", serde.serializer().serialize("t", d))).isEqualTo(d);
  }

  @Test
  void nullsPassThroughAndGarbageIsASerializationException() {
    AvroSerde<CrashEvent> serde = WireSerdes.crashEvent();
    assertThat(serde.serializer().serialize("t", null)).isNull();
    assertThat(serde.deserializer().deserialize("t", null)).isNull();
    assertThatThrownBy(() -> serde.deserializer().deserialize("t", new byte[] {1, 2, 3}))
        .isInstanceOf(SerializationException.class);
  }
}
