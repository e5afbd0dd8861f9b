package io.symbolicate.topology.decode;

import static io.symbolicate.symbols.testing.Fuzzing.check;
import static io.symbolicate.symbols.testing.Fuzzing.expect;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.json.RecordJson;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbolication.nativecode.NativeSymbolicator;
import io.symbolicate.symbols.testing.Fuzzing;
import io.symbolicate.testkit.events.SampleEvents;
import io.symbolicate.topology.config.InputFormat;
import io.symbolicate.topology.config.TopologyConfig;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Timeout;

/**
 * The Kafka side's decoding (docs/fuzzing.md): a record value as the stream's decode step takes
 * it, through {@link RawEventDecoder} (Avro single-object and JSON) and {@link EventValidator},
 * then, for a native event, the native step without a store (frame resolution, .NET frames).
 * In every build the corpus under {@code EventFuzzTestsInputs/<target>/} is replayed.
 */
class EventFuzzTests {
  private static final RawEventDecoder AUTO =
      new RawEventDecoder(InputFormat.AUTO, TopologyConfig.DEFAULT_MAX_EVENT_BYTES);
  private static final RawEventDecoder AVRO =
      new RawEventDecoder(InputFormat.AVRO, TopologyConfig.DEFAULT_MAX_EVENT_BYTES);
  private static final RawEventDecoder JSON =
      new RawEventDecoder(InputFormat.JSON, TopologyConfig.DEFAULT_MAX_EVENT_BYTES);
  private static final NativeSymbolicator NATIVE = new NativeSymbolicator();
  private static final EventValidator VALIDATOR =
      new EventValidator(TopologyConfig.DEFAULT_MAX_FRAMES);

  static {
    // Avro builds its readers (and loads, and when fuzzing instruments, their classes) on the
    // first record of each schema: seconds on a busy machine, which the first input would pay
    // against the 10 s per input
    try {
      for (CrashEvent e :
          new CrashEvent[] {
            SampleEvents.nativeEvent("w"), SampleEvents.jsEvent("w"), SampleEvents.jvmEvent("w")
          }) {
        AUTO.decode(WireSerdes.crashEvent().encode(e));
        JSON.decode(RecordJson.write(e, false).getBytes(StandardCharsets.UTF_8));
      }
    } catch (InvalidEventException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * The same bytes through each input format's decoder, then the validator: an event, or
   * {@link InvalidEventException} (the dead letter's reason). A valid event must survive the
   * stream's own Avro encoding, and be writable as JSON (the DLQ and tools show it so).
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  @DictionaryEntries({
    "\"event_id\"",
    "\"platform\"",
    "\"native\"",
    "\"javascript\"",
    "\"jvm\"",
    "\"scope\"",
    "\"threads\"",
    "\"frames\"",
    "\"modules\"",
    "\"instruction_addr\"",
    "\"debug_id\"",
    "\"release\"",
    "\"received_at\"",
    "\"stacktraces\"",
    "\"exceptions\"",
    "\"minidump\"",
    "\"apple_crash_report\"",
    "\"abs_path\"",
    "\"lineno\"",
    "\"colno\"",
    "\"module\"",
    "\"function\"",
    "\"attributes\"",
    "\"addr_mode\"",
    "\"function_id\"",
    "\"pe_dotnet\"",
    "\"rel:0\"",
    "\"module_index\""
  })
  void event(byte[] data) throws Exception {
    for (RawEventDecoder d : new RawEventDecoder[] {AUTO, AVRO, JSON}) {
      expect(
          data,
          () -> {
            CrashEvent e = d.decode(data);
            VALIDATOR.validate(e);
            byte[] avro = WireSerdes.crashEvent().encode(e);
            check(
                WireSerdes.crashEvent().decode(avro).equals(e),
                "a valid event differs after an Avro round trip");
            check(!RecordJson.write(e, false).isEmpty(), "a valid event has no JSON");
            if (e.getPlatform() == Platform.native$) {
              // the native step without a store: frames resolve (module_index, addr_mode rel:N,
              // absolute addresses, .NET frames) and get statuses, never an exception
              SymbolicatedEvent out = NATIVE.symbolicate(e, 0L);
              check(
                  out.getStacks().size() == e.getNative$().getThreads().size(),
                  "a stack per thread");
            }
          },
          InvalidEventException.class);
    }
  }
}
