package io.symbolicate.schema.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.ErrorKind;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.MissingSymbols;
import io.symbolicate.schema.ModuleState;
import io.symbolicate.schema.NativeFrame;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.RequestReason;
import io.symbolicate.schema.SchemaHistory;
import io.symbolicate.schema.StackKind;
import io.symbolicate.schema.SymbolRequest;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.symbolication.nativecode.NativeSymbolicator;
import io.symbolicate.symbolication.platform.SymbolicatedEvents;
import io.symbolicate.symbols.nativecode.SharedUtf8;
import io.symbolicate.testkit.events.SampleEvents;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.message.BadHeaderException;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.MissingSchemaException;
import org.apache.avro.specific.SpecificData;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/** One round-trip test per wire type. */
class WireSerdesTest {

  @Test
  void crashEventRoundTripsWithSingleObjectHeader() {
    AvroSerde<CrashEvent> serde = WireSerdes.crashEvent();
    for (CrashEvent e :
        new CrashEvent[] {
          SampleEvents.nativeEvent("a"), SampleEvents.jsEvent("b"), SampleEvents.jvmEvent("c")
        }) {
      byte[] bytes = serde.serializer().serialize("t", e);
      assertThat(bytes[0] & 0xff).isEqualTo(0xC3);
      assertThat(bytes[1]).isEqualTo((byte) 0x01);
      assertThat(serde.deserializer().deserialize("t", bytes)).isEqualTo(e);
    }
  }

  @Test
  void symbolicatedEventRoundTrips() {
    SymbolicatedEvent e =
        new NativeSymbolicator().symbolicate(SampleEvents.nativeEvent("a"), 1_700_000_000_000L);
    AvroSerde<SymbolicatedEvent> serde = WireSerdes.symbolicatedEvent();
    assertThat(serde.deserializer().deserialize("t", serde.serializer().serialize("t", e)))
        .isEqualTo(e);
  }

  @Test
  void namesGivenAsPageBytesEncodeAsStringsWould() throws Exception {
    String[][] names = {
      {"main", "src/main.c"},
      {"ns::Grüße<char>::f()", "/src/ünï.cc"},
      {"emoji_\uD83D\uDE00()", null}
    };
    AvroSerde<SymbolicatedEvent> serde = WireSerdes.symbolicatedEvent();
    for (String[] n : names) {
      SymbolicatedEvent asStrings = withFrame(n[0], n[1]);
      SymbolicatedEvent asBytes =
          withFrame(SharedUtf8.of(n[0]), n[1] == null ? null : SharedUtf8.of(n[1]));
      byte[] bytes = serde.encode(asBytes);
      assertThat(bytes).isEqualTo(serde.encode(asStrings));
      SymbolicatedFrame back = serde.decode(bytes).getStacks().get(0).getFrames().get(0);
      // Avro's fast reader follows avro.java.string: Strings come back (docs/schemas.md)
      assertThat(back.getFunction()).isInstanceOf(String.class).hasToString(n[0]);
      assertThat(Objects.toString(back.getFile(), null)).isEqualTo(n[1]);
      assertThat(serde.decode(bytes)).isEqualTo(asStrings).isEqualTo(asBytes);
    }
  }

  private static SymbolicatedEvent withFrame(CharSequence function, CharSequence file) {
    SymbolicatedEvent.Builder b =
        SymbolicatedEvents.builder(SampleEvents.nativeEvent("a"), 1_700_000_000_000L);
    b.getStacks()
        .add(
            SymbolicatedEvents.stack(
                StackKind.thread,
                0,
                List.of(
                    SymbolicatedEvents.frame(0, FrameStatus.symbolicated, null)
                        .setModuleIndex(0)
                        .setModuleOffset(0x1234L)
                        .setFunction(function)
                        .setFunctionOffset(4L)
                        .setFile(file)
                        .setLine(7)
                        .build())));
    return b.build();
  }

  @Test
  void deadLetterRoundTripsWithOriginalBytes() {
    DeadLetter d =
        DeadLetter.newBuilder()
            .setOriginalKey(ByteBuffer.wrap(new byte[] {1, 2}))
            .setOriginalValue(ByteBuffer.wrap(new byte[] {(byte) 0xff, 0, 7}))
            .setOriginalSize(3)
            .setSourceTopic("raw")
            .setSourcePartition(1)
            .setSourceOffset(42)
            .setErrorKind(ErrorKind.undecodable)
            .setMessage("bad")
            .setEventId(null)
            .setFailedAt(Instant.ofEpochMilli(5))
            .build();
    AvroSerde<DeadLetter> serde = WireSerdes.deadLetter();
    assertThat(serde.deserializer().deserialize("t", serde.serializer().serialize("t", d)))
        .isEqualTo(d);
  }

  @Test
  void nullsPassThroughAndGarbageIsASerializationException() {
    AvroSerde<CrashEvent> serde = WireSerdes.crashEvent();
    assertThat(serde.serializer().serialize("t", null)).isNull();
    assertThat(serde.deserializer().deserialize("t", null)).isNull();
    assertThatThrownBy(() -> serde.deserializer().deserialize("t", new byte[] {1, 2, 3}))
        .isInstanceOf(SerializationException.class);
  }

  @Test
  void decodesWhatAvrosOwnMessageDecoderDecodes() throws Exception {
    AvroSerde<CrashEvent> serde = WireSerdes.crashEvent();
    BinaryMessageDecoder<CrashEvent> avros =
        new BinaryMessageDecoder<>(
            SpecificData.getForClass(CrashEvent.class), CrashEvent.getClassSchema());
    for (CrashEvent e :
        new CrashEvent[] {
          SampleEvents.nativeEvent("a"), SampleEvents.jsEvent("b"), SampleEvents.jvmEvent("c")
        }) {
      byte[] bytes = serde.encode(e);
      assertThat(serde.decode(bytes)).isEqualTo(avros.decode(bytes)).isEqualTo(e);
    }
  }

  @Test
  void badHeadersUnknownSchemasAndTruncationAreAvrosExceptions() throws Exception {
    AvroSerde<CrashEvent> serde = WireSerdes.crashEvent();
    byte[] bytes = serde.encode(SampleEvents.nativeEvent("a"));
    assertThatThrownBy(() -> serde.decode(Arrays.copyOf(bytes, 9)))
        .isInstanceOf(BadHeaderException.class);
    byte[] notAvro = bytes.clone();
    notAvro[0] = '{';
    assertThatThrownBy(() -> serde.decode(notAvro))
        .isInstanceOf(BadHeaderException.class)
        .hasMessageContaining("0x7B 0x01");
    byte[] otherSchema = bytes.clone();
    otherSchema[5] ^= 0x55;
    assertThatThrownBy(() -> serde.decode(otherSchema)).isInstanceOf(MissingSchemaException.class);
    assertThatThrownBy(() -> serde.decode(Arrays.copyOf(bytes, bytes.length - 3)))
        .isInstanceOf(EOFException.class);
    // the thread's reused decoder is not left in a bad state by a failure
    assertThat(serde.decode(bytes)).isEqualTo(SampleEvents.nativeEvent("a"));
  }

  @Test
  void readsAnOlderWriterSchemaOnlyOnceItIsKnown() throws Exception {
    // an older SymbolRequest without 'scope' (today's schema gives it a default)
    Schema now = SymbolRequest.getClassSchema();
    Schema old =
        Schema.createRecord(
            now.getName(),
            null,
            now.getNamespace(),
            false,
            now.getFields().stream()
                .filter(f -> !f.name().equals("scope"))
                .map(f -> new Schema.Field(f, f.schema()))
                .toList());
    GenericRecord rec = new GenericData.Record(old);
    rec.put("platform", new GenericData.EnumSymbol(now.getField("platform").schema(), "native"));
    rec.put("module_key", "xul.pdb/ABC");
    rec.put("reason", new GenericData.EnumSymbol(now.getField("reason").schema(), "upload"));
    rec.put("requested_at", 7L);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(AvroSerde.singleObjectHeader(old));
    BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(old).write(rec, enc);
    enc.flush();
    byte[] bytes = out.toByteArray();

    AvroSerde<SymbolRequest> serde = new AvroSerde<>(SymbolRequest.class);
    long oldFingerprint = SchemaNormalization.parsingFingerprint64(old);
    assertThat(serde.readsFingerprint(oldFingerprint)).isFalse();
    assertThatThrownBy(() -> serde.decode(bytes)).isInstanceOf(MissingSchemaException.class);
    SymbolRequest r = serde.withHistoricalSchema(old).decode(bytes);
    assertThat(serde.readsFingerprint(oldFingerprint)).isTrue();
    assertThat(r.getScope()).isEqualTo("global");
    assertThat(r.getPlatform()).isEqualTo(Platform.native$);
    assertThat(r.getModuleKey()).isEqualTo("xul.pdb/ABC");
    assertThat(r.getReason()).isEqualTo(RequestReason.upload);
    assertThat(r.getRequestedAt()).isEqualTo(Instant.ofEpochMilli(7));
    // today's records still decode
    SymbolRequest current =
        SymbolRequest.newBuilder()
            .setScope("global")
            .setPlatform(Platform.jvm)
            .setModuleKey("uuid")
            .setReason(RequestReason.used)
            .setRequestedAt(Instant.ofEpochMilli(9))
            .build();
    assertThat(serde.decode(serde.encode(current))).isEqualTo(current);
  }

  /** The last released schema before v5 (which added .NET frames and the dotnet platform). */
  private static Schema v4(Schema type) {
    return SchemaHistory.releasedSchemasOf(type.getFullName()).get(3);
  }

  /** {@code bytes} (today's single-object encoding) as a reader of {@code readerSchema} sees them. */
  private static GenericRecord readAs(Schema writer, Schema readerSchema, byte[] bytes)
      throws Exception {
    return new GenericDatumReader<GenericRecord>(writer, readerSchema)
        .read(null, DecoderFactory.get().binaryDecoder(bytes, 10, bytes.length - 10, null));
  }

  /**
   * v5's .NET frames both ways: a v4 reader reads an event with one (its IL offset, without the
   * method and mode), an event written by v4 reads today with neither set, and a request for a
   * .NET table reads as platform {@code unknown} in v4 (the enum's default).
   */
  @Test
  void dotnetFramesReadInV4AndV4EventsReadToday() throws Exception {
    CrashEvent e = SampleEvents.nativeEvent("dotnet");
    List<NativeFrame> frames = new ArrayList<>(e.getNative$().getThreads().get(0).getFrames());
    frames.add(
        NativeFrame.newBuilder()
            .setAddrMode("rel:0")
            .setInstructionAddr(10L)
            .setFunctionId(7L)
            .build());
    e.getNative$().getThreads().get(0).setFrames(frames);
    byte[] now = WireSerdes.crashEvent().encode(e);
    Schema v4 = v4(CrashEvent.getClassSchema());
    GenericRecord old = readAs(CrashEvent.getClassSchema(), v4, now);
    GenericRecord thread =
        (GenericRecord) ((List<?>) ((GenericRecord) old.get("native")).get("threads")).get(0);
    GenericRecord dotnet = (GenericRecord) ((List<?>) thread.get("frames")).get(frames.size() - 1);
    assertThat(dotnet.getSchema().getField("function_id")).isNull();
    assertThat(dotnet.get("instruction_addr")).isEqualTo(10L);

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(AvroSerde.singleObjectHeader(v4));
    BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(v4).write(old, enc);
    enc.flush();
    CrashEvent back = WireSerdes.crashEvent().decode(out.toByteArray());
    List<NativeFrame> read = back.getNative$().getThreads().get(0).getFrames();
    assertThat(read).hasSize(frames.size());
    assertThat(read).allMatch(f -> f.getAddrMode() == null && f.getFunctionId() == null);
    assertThat(read.get(0)).isEqualTo(frames.get(0));
    assertThat(read.get(frames.size() - 1).getInstructionAddr()).isEqualTo(10L);

    SymbolRequest req =
        SymbolRequest.newBuilder()
            .setScope("global")
            .setPlatform(Platform.dotnet)
            .setModuleKey("integration.pdb/0C1033F78632492E91C6C314B72E1920E60B819D")
            .setReason(RequestReason.missing)
            .setRequestedAt(Instant.ofEpochMilli(9))
            .build();
    GenericRecord oldReq =
        readAs(
            SymbolRequest.getClassSchema(),
            v4(SymbolRequest.getClassSchema()),
            WireSerdes.symbolRequest().encode(req));
    assertThat(oldReq.get("platform").toString()).isEqualTo("unknown");
    assertThat(WireSerdes.symbolRequest().decode(WireSerdes.symbolRequest().encode(req)))
        .isEqualTo(req);
  }

  /**
   * v6's {@code source_link} both ways: a v5 reader reads a symbolicated event whose .NET frame
   * has one (the field skipped, the rest equal), and an event written by v5 reads today with
   * none.
   */
  @Test
  void sourceLinkReadsInV5AndV5EventsReadToday() throws Exception {
    String url = "https://raw.githubusercontent.com/dotnet/runtime/abc/src/ThrowHelper.cs";
    SymbolicatedEvent e =
        new NativeSymbolicator().symbolicate(SampleEvents.nativeEvent("link"), 1_700_000_000_000L);
    SymbolicatedFrame linked =
        SymbolicatedEvents.frame(0, FrameStatus.symbolicated, null)
            .setModuleIndex(0)
            .setModuleOffset(1L)
            .setFile("/_/src/libraries/Common/src/System/ThrowHelper.cs")
            .setLine(24)
            .setLang("csharp")
            .setSourceLink(url)
            .build();
    List<SymbolicatedFrame> frames = new ArrayList<>(e.getStacks().get(0).getFrames());
    frames.add(linked);
    e.getStacks().get(0).setFrames(frames);
    AvroSerde<SymbolicatedEvent> serde = WireSerdes.symbolicatedEvent();
    byte[] now = serde.encode(e);
    assertThat(
            serde.decode(now).getStacks().get(0).getFrames().get(frames.size() - 1).getSourceLink())
        .isEqualTo(url);

    Schema v5 =
        SchemaHistory.releasedSchemasOf(SymbolicatedEvent.getClassSchema().getFullName()).get(4);
    assertThat(v5.toString()).contains("\"lang\"").doesNotContain("source_link");
    GenericRecord old = readAs(SymbolicatedEvent.getClassSchema(), v5, now);
    GenericRecord stack = (GenericRecord) ((List<?>) old.get("stacks")).get(0);
    GenericRecord dotnet = (GenericRecord) ((List<?>) stack.get("frames")).get(frames.size() - 1);
    assertThat(dotnet.getSchema().getField("source_link")).isNull();
    assertThat(dotnet.get("lang").toString()).isEqualTo("csharp");
    assertThat(dotnet.get("line")).isEqualTo(24);

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(AvroSerde.singleObjectHeader(v5));
    BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(v5).write(old, enc);
    enc.flush();
    SymbolicatedEvent back = serde.decode(out.toByteArray());
    List<SymbolicatedFrame> read = back.getStacks().get(0).getFrames();
    assertThat(read).hasSize(frames.size()).allMatch(f -> f.getSourceLink() == null);
    assertThat(read.get(frames.size() - 1).getLang()).isEqualTo("csharp");
    assertThat(read.get(frames.size() - 1).getLine()).isEqualTo(24);
  }

  @Test
  void everyWireSerdeReadsEveryReleasedVersionOfItsType() {
    List<AvroSerde<?>> serdes =
        List.of(
            WireSerdes.crashEvent(),
            WireSerdes.symbolicatedEvent(),
            WireSerdes.deadLetter(),
            WireSerdes.moduleState(),
            WireSerdes.symbolRequest(),
            WireSerdes.missingSymbols());
    List<Schema> types =
        List.of(
            CrashEvent.getClassSchema(),
            SymbolicatedEvent.getClassSchema(),
            DeadLetter.getClassSchema(),
            ModuleState.getClassSchema(),
            SymbolRequest.getClassSchema(),
            MissingSymbols.getClassSchema());
    for (int i = 0; i < serdes.size(); i++) {
      List<Schema> released = SchemaHistory.releasedSchemasOf(types.get(i).getFullName());
      assertThat(released).as(types.get(i).getFullName()).isNotEmpty();
      for (Schema s : released) {
        assertThat(serdes.get(i).readsFingerprint(SchemaNormalization.parsingFingerprint64(s)))
            .as(types.get(i).getFullName())
            .isTrue();
      }
      assertThat(serdes.get(i).readsFingerprint(0x1234_5678_9ABC_DEF0L)).isFalse();
    }
  }
}
