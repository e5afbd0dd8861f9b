package io.symbolicate.topology.decode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.ErrorKind;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.testkit.events.SampleEvents;
import io.symbolicate.topology.config.InputFormat;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

class RawEventDecoderTest {
  private final RawEventDecoder auto = new RawEventDecoder(InputFormat.AUTO, 1 << 20);

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static ErrorKind kindOf(RawEventDecoder d, byte[] in) {
    try {
      d.decode(in);
      throw new AssertionError("expected a rejection");
    } catch (InvalidEventException e) {
      return e.kind();
    }
  }

  @Test
  void jsonWithHexAddressesAndIsoTimesBecomesTheSameEventAsAvro() throws Exception {
    CrashEvent e = auto.decode(utf8(SampleEvents.nativeEventJson("n-2")));
    assertThat(e.getEventId()).isEqualTo("n-2");
    assertThat(e.getScope()).isEqualTo("global"); // default
    assertThat(e.getPlatform()).isEqualTo(Platform.native$);
    assertThat(e.getReceivedAt()).isEqualTo(Instant.parse("2026-11-22T10:00:00Z"));
    assertThat(e.getNative$().getModules().get(0).getImageAddr()).isEqualTo(0x400000L);
    assertThat(e.getNative$().getThreads().get(0).getFrames().get(0).getInstructionAddr())
        .isEqualTo(0x401a2bL);
    assertThat(e.getAttributes()).containsEntry("source", "json");
    // and it survives the Avro wire format unchanged
    byte[] avro = WireSerdes.crashEvent().encode(e);
    assertThat(auto.decode(avro)).isEqualTo(e);
  }

  @Test
  void unsignedAddressesAbove2To63AreAccepted() throws Exception {
    String json =
        """
        {"event_id": "k", "platform": "native", "native": {"threads": [{"frames": [
          {"instruction_addr": "0xffffffff81000000"}, {"instruction_addr": 18446744071578845184}]}]}}""";
    CrashEvent e = auto.decode(utf8(json));
    var frames = e.getNative$().getThreads().get(0).getFrames();
    assertThat(Long.toUnsignedString(frames.get(0).getInstructionAddr(), 16))
        .isEqualTo("ffffffff81000000");
    assertThat(frames.get(1).getInstructionAddr()).isEqualTo(frames.get(0).getInstructionAddr());
  }

  @Test
  void jsonErrorsNameTheFieldPath() {
    String json =
        """
        {"event_id": "x", "platform": "native", "native": {"threads": [{"frames": [{"module_index": "zero"}]}]}}""";
    assertThatThrownBy(() -> auto.decode(utf8(json)))
        .isInstanceOf(InvalidEventException.class)
        .hasMessageContaining("$.native.threads[0].frames[0].module_index")
        .hasMessageContaining("32-bit integer")
        .satisfies(t -> assertThat(((InvalidEventException) t).eventId()).isEqualTo("x"));
  }

  @Test
  void hostileInputsAreRejectedWithAKind() {
    assertThat(kindOf(auto, new byte[0])).isEqualTo(ErrorKind.undecodable);
    assertThat(kindOf(auto, utf8("[1,2,3]"))).isEqualTo(ErrorKind.invalid_json);
    assertThat(kindOf(auto, utf8("{\"event_id\": \"x\", \"platform\": 3}")))
        .isEqualTo(ErrorKind.unknown_platform);
    assertThat(
            kindOf(
                auto,
                utf8(
                    "{\"event_id\": \"x\", \"platform\": \"native\", \"native\": "
                        + "{\"threads\": [{\"frames\": [{\"instruction_addr\": \"0x1ffffffffffffffff\"}]}]}}")))
        .isEqualTo(ErrorKind.invalid_event);
    // a key given twice, a signed address, epoch milliseconds past the signed range
    assertThatThrownBy(
            () ->
                auto.decode(
                    utf8("{\"event_id\": \"a\", \"event_id\": \"b\", \"platform\": \"jvm\"}")))
        .isInstanceOf(InvalidEventException.class)
        .hasMessageContaining("Duplicate field 'event_id'")
        .satisfies(
            t -> assertThat(((InvalidEventException) t).kind()).isEqualTo(ErrorKind.invalid_json));
    assertThatThrownBy(
            () ->
                auto.decode(
                    utf8(
                        "{\"event_id\": \"a\", \"platform\": \"native\", \"native\": "
                            + "{\"threads\": [{\"frames\": [{\"instruction_addr\": 1, \"instruction_addr\": 2}]}]}}")))
        .hasMessageContaining("Duplicate field 'instruction_addr'");
    for (String addr :
        new String[] {
          "\"0x+1010\"",
          "\"+4112\"",
          "\"-1\"",
          "\"0x\"",
          "\"0x\u0661\u0660\"",
          "\"\u0661\u0660\"",
          "\"0x 10\""
        }) {
      assertThatThrownBy(
              () ->
                  auto.decode(
                      utf8(
                          "{\"event_id\": \"x\", \"platform\": \"native\", \"native\": "
                              + "{\"threads\": [{\"frames\": [{\"instruction_addr\": "
                              + addr
                              + "}]}]}}")))
          .as(addr)
          .isInstanceOf(InvalidEventException.class)
          .hasMessageContaining("instruction_addr");
    }
    assertThatThrownBy(
            () ->
                auto.decode(
                    utf8(
                        "{\"event_id\": \"x\", \"platform\": \"jvm\", \"received_at\": 18446744073709551615}")))
        .isInstanceOf(InvalidEventException.class)
        .hasMessageContaining("$.received_at: epoch milliseconds out of");
    assertThatThrownBy(() -> auto.decode(utf8(" \n\t ")))
        .hasMessage("record value is only whitespace");
    assertThatThrownBy(() -> auto.decode(new byte[] {(byte) 0xff, 0x7b}))
        .hasMessageContaining("nor JSON (first byte 0xff)");
    // deeply nested JSON is refused by the parser's limits, not by a stack overflow
    String deep = "{\"a\":".repeat(5000) + "1" + "}".repeat(5000);
    assertThat(kindOf(auto, utf8(deep))).isEqualTo(ErrorKind.invalid_json);
    // invalid UTF-8 inside a JSON string
    byte[] badUtf8 = utf8("{\"event_id\": \"\u0000\", \"platform\": \"jvm\"}");
    badUtf8[15] = (byte) 0xC3;
    badUtf8[16] = (byte) 0x28;
    assertThat(kindOf(auto, badUtf8)).isIn(ErrorKind.invalid_json, ErrorKind.invalid_event);
    // an Avro header followed by junk
    byte[] avro = WireSerdes.crashEvent().encode(SampleEvents.jvmEvent("v"));
    byte[] junk = Arrays.copyOf(avro, avro.length);
    for (int i = 10; i < junk.length; i++) {
      junk[i] = (byte) 0xFF;
    }
    assertThat(kindOf(auto, junk)).isEqualTo(ErrorKind.undecodable);
    // an unknown writer schema fingerprint
    byte[] unknownSchema = avro.clone();
    unknownSchema[5] ^= 0x55;
    assertThat(kindOf(auto, unknownSchema)).isEqualTo(ErrorKind.undecodable);
  }

  @Test
  void anAvroArrayLengthClaimOfTwoBillionDoesNotExhaustMemory() throws Exception {
    // a valid header and event_id, then a map/array block claiming 2^31-1 items
    byte[] valid = WireSerdes.crashEvent().encode(SampleEvents.jvmEvent("v"));
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.write(valid, 0, 10); // C3 01 + fingerprint
    BinaryEncoder enc = EncoderFactory.get().directBinaryEncoder(body, null);
    enc.writeString("evt"); // event_id
    enc.writeString("global"); // scope
    enc.writeIndex(0); // received_at: null
    enc.writeEnum(3); // platform: jvm
    enc.writeIndex(0); // release: null
    enc.writeIndex(0); // dist: null
    enc.writeLong(Integer.MAX_VALUE); // attributes: a block claiming 2^31-1 entries
    enc.flush();
    assertThat(kindOf(auto, body.toByteArray())).isEqualTo(ErrorKind.undecodable);
  }

  @Test
  void oversizedInputIsTooLargeBeforeParsing() {
    RawEventDecoder small = new RawEventDecoder(InputFormat.AUTO, 100);
    assertThat(kindOf(small, utf8("{\"event_id\": \"" + "x".repeat(200) + "\"}")))
        .isEqualTo(ErrorKind.too_large);
  }
}
