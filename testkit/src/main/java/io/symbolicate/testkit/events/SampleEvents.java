package io.symbolicate.testkit.events;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.JsException;
import io.symbolicate.schema.JsFrame;
import io.symbolicate.schema.JsModule;
import io.symbolicate.schema.JsPayload;
import io.symbolicate.schema.JvmException;
import io.symbolicate.schema.JvmFrame;
import io.symbolicate.schema.JvmModule;
import io.symbolicate.schema.JvmPayload;
import io.symbolicate.schema.NativeFrame;
import io.symbolicate.schema.NativeModule;
import io.symbolicate.schema.NativePayload;
import io.symbolicate.schema.NativeThread;
import io.symbolicate.schema.Platform;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Sample crash events of every platform, and hostile inputs, for the demo and the tests. */
public final class SampleEvents {
  private SampleEvents() {}

  public static CrashEvent nativeEvent(String id) {
    NativeModule app =
        NativeModule.newBuilder()
            .setType("elf")
            .setCodeFile("crashy")
            .setCodeId("7C1A5E0D3A2B4C5D")
            .setDebugFile("crashy")
            .setDebugId("0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0")
            .setImageAddr(0x400000L)
            .setImageSize(0x20000L)
            .build();
    NativeModule libc =
        NativeModule.newBuilder()
            .setType("elf")
            .setCodeFile("libc.so.6")
            .setDebugFile("libc.so.6")
            .setDebugId("A1B2C3D4E5F60718293A4B5C6D7E8F900")
            .setImageAddr(0x7f0000000000L)
            .setImageSize(0x200000L)
            .build();
    List<NativeFrame> frames =
        List.of(
            NativeFrame.newBuilder()
                .setModuleIndex(0)
                .setModuleOffset(0x1a2bL)
                .setTrust("context")
                .build(),
            NativeFrame.newBuilder()
                .setInstructionAddr(0x400000L + 0x1c40L)
                .setTrust("cfi")
                .build(),
            NativeFrame.newBuilder()
                .setInstructionAddr(0x7f0000000000L + 0x29d90L)
                .setTrust("cfi")
                .build(),
            NativeFrame.newBuilder()
                .setModuleIndex(7)
                .setModuleOffset(0x10L)
                .setTrust("scan")
                .build(),
            NativeFrame.newBuilder().setInstructionAddr(0x1234L).setTrust("scan").build());
    return base(id, Platform.native$)
        .setNative$(
            NativePayload.newBuilder()
                .setArch("amd64")
                .setModules(List.of(app, libc))
                .setThreads(
                    List.of(
                        NativeThread.newBuilder()
                            .setId(1L)
                            .setName("main")
                            .setCrashed(true)
                            .setFrames(frames)
                            .build()))
                .build())
        .build();
  }

  public static CrashEvent jsEvent(String id) {
    String url = "https://app.example.com/static/app.min.js";
    return base(id, Platform.javascript)
        .setJavascript(
            JsPayload.newBuilder()
                .setModules(
                    List.of(
                        JsModule.newBuilder()
                            .setCodeFile(url)
                            .setDebugId("c941a2f6-1b7e-4d2a-9c0f-3a5b8e7d6f10")
                            .build()))
                .setExceptions(
                    List.of(
                        JsException.newBuilder()
                            .setType("TypeError")
                            .setValue("Cannot read properties of undefined (reading 'id')")
                            .setFrames(
                                List.of(
                                    JsFrame.newBuilder()
                                        .setAbsPath(url)
                                        .setLineno(1)
                                        .setColno(1043)
                                        .setFunction("a")
                                        .build(),
                                    JsFrame.newBuilder()
                                        .setAbsPath(url)
                                        .setLineno(1)
                                        .setColno(877)
                                        .build()))
                            .build()))
                .build())
        .build();
  }

  public static CrashEvent jvmEvent(String id) {
    return base(id, Platform.jvm)
        .setJvm(
            JvmPayload.newBuilder()
                .setModules(
                    List.of(
                        JvmModule.newBuilder()
                            .setUuid("5d3f7b0e-1c2a-4e6b-9a8d-0f1e2d3c4b5a")
                            .build()))
                .setExceptions(
                    List.of(
                        JvmException.newBuilder()
                            .setType("a")
                            .setModule("io.example.b")
                            .setValue("boom")
                            .setFrames(
                                List.of(
                                    JvmFrame.newBuilder()
                                        .setModule("io.example.a.b")
                                        .setFunction("a")
                                        .setLineno(12)
                                        .build(),
                                    JvmFrame.newBuilder()
                                        .setModule("io.example.c")
                                        .setFunction("b")
                                        .setLineno(4)
                                        .build()))
                            .build()))
                .setClasses(List.of("io.example.a.b"))
                .build())
        .build();
  }

  /** The same native event as plain JSON, as crash collectors emit it (hex address strings). */
  public static String nativeEventJson(String id) {
    return """
        {"event_id": "%s", "platform": "native", "received_at": "2026-11-22T10:00:00Z",
         "release": "crashy@1.0", "attributes": {"source": "json"},
         "native": {"arch": "amd64",
           "modules": [{"type": "elf", "code_file": "crashy", "debug_file": "crashy",
                        "debug_id": "0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0",
                        "image_addr": "0x400000", "image_size": 131072}],
           "threads": [{"crashed": true, "frames": [
              {"instruction_addr": "0x401a2b"}, {"module_index": 0, "module_offset": 7232}]}]}}
        """
        .formatted(id);
  }

  public static byte[] undecodableBytes() {
    return new byte[] {0x00, (byte) 0xFF, 0x13, 0x37, 0x42, 0x00, 0x01};
  }

  public static byte[] invalidJson() {
    return "{\"event_id\": \"x\", \"platform\": \"native\", ".getBytes(StandardCharsets.UTF_8);
  }

  public static byte[] missingEventIdJson() {
    return "{\"platform\": \"jvm\", \"jvm\": {}}".getBytes(StandardCharsets.UTF_8);
  }

  public static byte[] unknownPlatformJson(String id) {
    return ("{\"event_id\": \"" + id + "\", \"platform\": \"cobol\"}")
        .getBytes(StandardCharsets.UTF_8);
  }

  /** A native event with {@code frames} frames: an absurdly large stack. */
  public static CrashEvent hugeEvent(String id, int frames) {
    CrashEvent e = nativeEvent(id);
    List<NativeFrame> many = new ArrayList<>(frames);
    for (int i = 0; i < frames; i++) {
      many.add(NativeFrame.newBuilder().setModuleIndex(0).setModuleOffset((long) i).build());
    }
    e.getNative$().getThreads().get(0).setFrames(many);
    return e;
  }

  private static CrashEvent.Builder base(String id, Platform p) {
    return CrashEvent.newBuilder()
        .setEventId(id)
        .setScope("global")
        .setReceivedAt(Instant.parse("2026-11-22T10:00:00Z"))
        .setPlatform(p)
        .setRelease("crashy@1.0")
        .setDist(null)
        .setAttributes(Map.of("environment", "demo"));
  }
}
