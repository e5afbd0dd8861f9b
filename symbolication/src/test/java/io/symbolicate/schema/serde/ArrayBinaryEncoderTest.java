package io.symbolicate.schema.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.StackKind;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.symbolication.nativecode.NativeSymbolicator;
import io.symbolicate.symbolication.platform.SymbolicatedEvents;
import io.symbolicate.testkit.events.SampleEvents;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;
import org.junit.jupiter.api.Test;

/** The array encoder writes exactly the bytes Avro's own encoders write. */
class ArrayBinaryEncoderTest {

  /** Strings that take each path: empty, ASCII of every length class, Latin-1, BMP, surrogate pairs. */
  static List<String> strings() {
    List<String> s =
        new ArrayList<>(
            List.of(
                "",
                "a",
                "bench::module3::function_12345(int, char const*)",
                "x".repeat(63),
                "y".repeat(64),
                "z".repeat(200),
                "q".repeat(9000),
                "r".repeat(ArrayBinaryEncoder.SHORT_CHARS),
                "s".repeat(ArrayBinaryEncoder.SHORT_CHARS - 1) + "\u00e9",
                "t".repeat(ArrayBinaryEncoder.SHORT_CHARS + 1),
                "\u00e9".repeat(ArrayBinaryEncoder.SHORT_CHARS + 1),
                "caf\u00e9",
                "\u00e9t\u00e9",
                "na\u00efve::\u4e2d\u6587()",
                "\ud83d\ude00 emoji",
                "ascii then \u00ff",
                "\u0101".repeat(70),
                "a".repeat(100) + "\u4e2d"));
    Random rnd = new Random(1);
    for (int i = 0; i < 200; i++) {
      StringBuilder b = new StringBuilder();
      int n = rnd.nextInt(150);
      for (int k = 0; k < n; k++) {
        b.append((char) (rnd.nextInt(10) == 0 ? rnd.nextInt(0xD000) : 32 + rnd.nextInt(95)));
      }
      s.add(b.toString());
    }
    return s;
  }

  @Test
  void primitivesAndStringsMatchAvrosEncoder() throws Exception {
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    BinaryEncoder avro = EncoderFactory.get().directBinaryEncoder(expected, null);
    ArrayBinaryEncoder ours = new ArrayBinaryEncoder();
    long[] longs = {
      0,
      1,
      -1,
      63,
      64,
      -64,
      -65,
      Integer.MAX_VALUE,
      Integer.MIN_VALUE,
      Long.MAX_VALUE,
      Long.MIN_VALUE
    };
    for (long v : longs) {
      avro.writeLong(v);
      ours.writeLong(v);
      avro.writeInt((int) v);
      ours.writeInt((int) v);
    }
    for (String s : strings()) {
      avro.writeString(s);
      ours.writeString(s);
      avro.writeIndex(1);
      ours.writeIndex(1);
    }
    avro.writeBoolean(true);
    ours.writeBoolean(true);
    avro.writeFloat(1.5f);
    ours.writeFloat(1.5f);
    avro.writeDouble(-2.25);
    ours.writeDouble(-2.25);
    avro.writeBytes(new byte[] {9, 8, 7});
    ours.writeBytes(new byte[] {9, 8, 7});
    avro.writeArrayStart();
    ours.writeArrayStart();
    avro.setItemCount(2);
    ours.setItemCount(2);
    avro.writeArrayEnd();
    ours.writeArrayEnd();
    avro.flush();
    assertThat(ours.toByteArray()).isEqualTo(expected.toByteArray());

    // and they read back
    BinaryDecoder in = DecoderFactory.get().binaryDecoder(ours.toByteArray(), null);
    for (long v : longs) {
      assertThat(in.readLong()).isEqualTo(v);
      assertThat(in.readInt()).isEqualTo((int) v);
    }
    for (String s : strings()) {
      assertThat(in.readString()).isEqualTo(s);
      assertThat(in.readIndex()).isEqualTo(1);
    }
  }

  @Test
  void recordsMatchAvrosSingleObjectEncoding() throws Exception {
    AvroSerde<CrashEvent> events = WireSerdes.crashEvent();
    var avroEvents =
        new BinaryMessageEncoder<CrashEvent>(
            SpecificData.getForClass(CrashEvent.class), CrashEvent.getClassSchema());
    for (CrashEvent e :
        new CrashEvent[] {
          SampleEvents.nativeEvent("a"),
          SampleEvents.jsEvent("b\u00e9"),
          SampleEvents.jvmEvent("c"),
          SampleEvents.hugeEvent("big", 20_000)
        }) {
      assertThat(events.encode(e)).isEqualTo(bytes(avroEvents.encode(e)));
    }

    SymbolicatedEvent out =
        new NativeSymbolicator().symbolicate(SampleEvents.nativeEvent("a"), 1_700_000_000_000L);
    List<io.symbolicate.schema.SymbolicatedFrame> frames = new ArrayList<>();
    for (String s : strings()) {
      frames.add(
          SymbolicatedEvents.frame(frames.size(), FrameStatus.symbolicated, null)
              .setFunction(s)
              .setFile(s)
              .setLine(frames.size())
              .setModuleOffset(-1L * frames.size())
              .build());
    }
    out.getStacks().add(SymbolicatedEvents.stack(StackKind.thread, 9, frames));
    out.getModules().add(SymbolicatedEvents.module(3, "m\u00fc/ID", ModuleStatus.found, null));
    out.setClasses(Map.of("a.b", "com.example.\u00c4"));
    AvroSerde<SymbolicatedEvent> serde = WireSerdes.symbolicatedEvent();
    var avro =
        new BinaryMessageEncoder<SymbolicatedEvent>(
            SpecificData.getForClass(SymbolicatedEvent.class), SymbolicatedEvent.getClassSchema());
    byte[] ours = serde.encode(out);
    assertThat(ours).isEqualTo(bytes(avro.encode(out)));
    assertThat(serde.decode(ours)).isEqualTo(out);
    // the per-thread buffer is reused: a smaller record after a larger one is not polluted
    SymbolicatedEvent small =
        new NativeSymbolicator().symbolicate(SampleEvents.nativeEvent("s"), 1L);
    assertThat(serde.encode(small)).isEqualTo(bytes(avro.encode(small)));
  }

  @Test
  void aBufferGrownForAHugeRecordIsNotKept() {
    ArrayBinaryEncoder enc = new ArrayBinaryEncoder();
    byte[] big = new byte[ArrayBinaryEncoder.KEEP_BYTES + 1];
    big[big.length - 1] = 42;
    enc.writeFixed(big, 0, big.length);
    assertThat(enc.toByteArray()).hasSize(big.length).endsWith((byte) 42);
    enc.reset();
    enc.writeInt(-3);
    assertThat(enc.toByteArray()).containsExactly((byte) 5);
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] a = new byte[b.remaining()];
    b.get(a);
    return a;
  }
}
