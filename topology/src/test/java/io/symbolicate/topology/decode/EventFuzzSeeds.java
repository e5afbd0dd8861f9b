package io.symbolicate.topology.decode;

import io.symbolicate.schema.Attachment;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.NativeFrame;
import io.symbolicate.schema.NativeModule;
import io.symbolicate.schema.json.RecordJson;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.testkit.events.SampleEvents;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Writes the seeds of {@link EventFuzzTests} (scripts/fuzz-seeds.sh): the sample events of every
 * platform as Avro single-object records and as JSON, native events carrying a minidump and an
 * Apple report, and the hostile samples. Other files in the directory are left alone.
 */
public final class EventFuzzSeeds {
  private EventFuzzSeeds() {}

  public static void main(String[] args) throws IOException {
    Path dir =
        Path.of(args[0]).resolve("io/symbolicate/topology/decode/EventFuzzTestsInputs/event");
    Files.createDirectories(dir);
    CrashEvent dump = SampleEvents.nativeEvent("n-dump");
    dump.getNative$()
        .setMinidump(
            Attachment.newBuilder()
                .setBucket("dumps")
                .setKey("2026/11/27/n-dump.dmp")
                .setSize(21_000L)
                .setSha256("0".repeat(64))
                .build());
    CrashEvent apple = SampleEvents.nativeEvent("n-apple");
    apple.getNative$().setThreads(List.of());
    apple
        .getNative$()
        .setAppleCrashReport(
            Attachment.newBuilder()
                .setText(
                    "Incident Identifier: 5D6A\nHardware Model: iPhone14,2\nException Type: EXC_CRASH (SIGABRT)\n\n"
                        + "Thread 0 Crashed:\n0   libsystem_kernel.dylib  0x00000001c0b0a1b4 0x1c0b00000 + 41396\n")
                .build());
    CrashEvent inlineDump = SampleEvents.nativeEvent("n-inline-dump");
    inlineDump
        .getNative$()
        .setMinidump(
            Attachment.newBuilder()
                .setData(
                    ByteBuffer.wrap("MDMP\u0093\u00a7\0\0".getBytes(StandardCharsets.ISO_8859_1)))
                .build());
    // .NET frames (schema v5): a pe_dotnet module, Symbolicator's rel:N form and a bad mode
    CrashEvent dotnet = SampleEvents.nativeEvent("n-dotnet");
    dotnet
        .getNative$()
        .setModules(
            List.of(
                NativeModule.newBuilder()
                    .setType("pe_dotnet")
                    .setDebugFile("integration.pdb")
                    .setDebugId("0c1033f7-8632-492e-91c6-c314b72e1920-e60b819d")
                    .build()));
    dotnet
        .getNative$()
        .getThreads()
        .get(0)
        .setFrames(
            List.of(
                NativeFrame.newBuilder()
                    .setAddrMode("rel:0")
                    .setInstructionAddr(10L)
                    .setFunctionId(6L)
                    .build(),
                NativeFrame.newBuilder()
                    .setAddrMode("rel:x")
                    .setInstructionAddr(0L)
                    .setFunctionId(1L)
                    .build()));
    CrashEvent[] events = {
      SampleEvents.nativeEvent("n-1"),
      SampleEvents.jsEvent("js-1"),
      SampleEvents.jvmEvent("jvm-1"),
      dump,
      apple,
      inlineDump,
      dotnet
    };
    int written = 0;
    for (CrashEvent e : events) {
      String name = e.getEventId();
      byte[] avro = WireSerdes.crashEvent().encode(e);
      write(dir, "seed-avro-" + name, avro);
      write(dir, "seed-json-" + name, RecordJson.write(e, false).getBytes(StandardCharsets.UTF_8));
      written += 2;
    }
    byte[] avro = WireSerdes.crashEvent().encode(SampleEvents.jvmEvent("cut"));
    write(dir, "seed-avro-truncated", Arrays.copyOf(avro, avro.length / 2));
    write(
        dir,
        "seed-json-collector",
        SampleEvents.nativeEventJson("n-2").getBytes(StandardCharsets.UTF_8));
    write(
        dir,
        "seed-json-pretty",
        RecordJson.write(SampleEvents.jsEvent("js-2"), true).getBytes(StandardCharsets.UTF_8));
    write(dir, "seed-undecodable", SampleEvents.undecodableBytes());
    write(dir, "seed-json-invalid", SampleEvents.invalidJson());
    write(dir, "seed-json-no-event-id", SampleEvents.missingEventIdJson());
    write(dir, "seed-json-unknown-platform", SampleEvents.unknownPlatformJson("u-1"));
    System.out.println("wrote " + (written + 7) + " event seeds to " + dir);
  }

  private static void write(Path dir, String name, byte[] bytes) throws IOException {
    Files.write(dir.resolve(name), bytes);
  }
}
