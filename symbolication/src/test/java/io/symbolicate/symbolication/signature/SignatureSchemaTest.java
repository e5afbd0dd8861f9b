package io.symbolicate.symbolication.signature;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.schema.SchemaHistory;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbolication.platform.SymbolicatedEvents;
import io.symbolicate.testkit.events.SampleEvents;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

/**
 * The signature fields are compatible both ways with the first release (docs/schemas.md): a v1
 * reader reads a signed event and skips them; today's serde reads a v1 event with the defaults.
 */
class SignatureSchemaTest {
  private static final int HEADER = 10; // C3 01 + 8-byte fingerprint

  private static Schema v1() {
    return SchemaHistory.releasedSchemasOf(SymbolicatedEvent.getClassSchema().getFullName()).get(0);
  }

  private static SymbolicatedEvent signed() {
    SymbolicatedEvent e = SymbolicatedEvents.builder(SampleEvents.jvmEvent("v-1"), 5L).build();
    return new EventSigner(io.symbolicate.signatures.SignatureLists.defaults()).sign(e);
  }

  private static GenericRecord readAsV1(byte[] singleObject) throws Exception {
    byte[] body = Arrays.copyOfRange(singleObject, HEADER, singleObject.length);
    return new GenericDatumReader<GenericRecord>(SymbolicatedEvent.getClassSchema(), v1())
        .read(null, DecoderFactory.get().binaryDecoder(body, null));
  }

  @Test
  void aFirstReleaseReaderSkipsTheSignature() throws Exception {
    SymbolicatedEvent e = signed();
    assertThat(e.getSignature()).isNotBlank();
    GenericRecord old = readAsV1(WireSerdes.symbolicatedEvent().encode(e));
    assertThat(old.getSchema().getField("signature")).isNull();
    assertThat(((GenericRecord) old.get("event")).get("event_id").toString()).isEqualTo("v-1");
  }

  @Test
  void todaysSerdeReadsAFirstReleaseEventWithoutASignature() throws Exception {
    GenericRecord old = readAsV1(WireSerdes.symbolicatedEvent().encode(signed()));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    // single-object encoding: C3 01, then the writer schema's fingerprint, little-endian
    out.write(0xC3);
    out.write(0x01);
    long fp = org.apache.avro.SchemaNormalization.parsingFingerprint64(v1());
    for (int i = 0; i < 8; i++) {
      out.write((int) (fp >>> (8 * i)) & 0xFF);
    }
    BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(v1()).write(old, enc);
    enc.flush();

    SymbolicatedEvent read = WireSerdes.symbolicatedEvent().decode(out.toByteArray());
    assertThat(read.getEvent().getEventId()).isEqualTo("v-1");
    assertThat(read.getSignature()).isNull();
    assertThat(read.getProtoSignature()).isNull();
    assertThat(read.getSignatureNotes()).isEqualTo(List.of());
  }
}
