package io.symbolicate.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.JsException;
import io.symbolicate.schema.JsFrame;
import io.symbolicate.schema.JsPayload;
import io.symbolicate.schema.JvmException;
import io.symbolicate.schema.JvmFrame;
import io.symbolicate.schema.JvmPayload;
import io.symbolicate.schema.NativeFrame;
import io.symbolicate.schema.NativeModule;
import io.symbolicate.schema.NativePayload;
import io.symbolicate.schema.NativeThread;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.RemappedException;
import io.symbolicate.schema.StackKind;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.signatures.CrashData;
import io.symbolicate.signatures.CrashFrame;
import io.symbolicate.signatures.CrashThread;
import io.symbolicate.signatures.JavaException;
import io.symbolicate.signatures.JavaFrame;
import io.symbolicate.signatures.JavaStackTrace;
import io.symbolicate.signatures.SignatureGenerator;
import io.symbolicate.signatures.SignatureLists;
import io.symbolicate.signatures.SignatureResult;
import io.symbolicate.symbolication.platform.PlatformSymbolicator;
import io.symbolicate.symbolication.platform.SymbolicatedEvents;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.topology.config.TopologyConfig;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every symbolicated event leaves the topology with the signature the generator gives for its
 * frames. The platform steps here answer with fixed symbolicated frames (no symbol tables), so
 * the test states the crash data those frames mean by hand and compares with the generator.
 */
class SignatureTopologyTest {
  @TempDir Path stateDir;

  private TopologyTestDriver driver;
  private TestInputTopic<byte[], byte[]> raw;
  private TestOutputTopic<String, SymbolicatedEvent> out;

  @AfterEach
  void close() {
    if (driver != null) {
      driver.close();
    }
  }

  private void start(TopologyConfig cfg) {
    Map<Platform, PlatformSymbolicator> steps =
        SymbolicationTopology.steps(List.of(new FixedNative(), new FixedJvm(), new FixedJs()));
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "sig-test");
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    driver =
        new TopologyTestDriver(SymbolicationTopology.build(cfg, steps, new PageCache(1 << 20)), p);
    raw =
        driver.createInputTopic(
            cfg.topics().raw(), Serdes.ByteArray().serializer(), Serdes.ByteArray().serializer());
    out =
        driver.createOutputTopic(
            cfg.topics().symbolicated(),
            Serdes.String().deserializer(),
            WireSerdes.symbolicatedEvent().deserializer());
  }

  private SymbolicatedEvent roundTrip(CrashEvent e) {
    raw.pipeInput(e.getEventId().getBytes(), WireSerdes.crashEvent().encode(e));
    assertThat(out.isEmpty()).isFalse();
    return out.readValue();
  }

  private static void assertSigned(SymbolicatedEvent got, SignatureResult expected) {
    assertThat(got.getSignature()).isEqualTo(expected.signature());
    assertThat(got.getProtoSignature()).isEqualTo(expected.protoSignature());
    assertThat(got.getSignatureNotes()).isEqualTo(expected.notes());
  }

  // ---- native: thread 1 crashed; frame 0 has an inlined callee; frame 2 has no symbols

  static CrashEvent nativeEvent(String id) {
    List<NativeFrame> frames =
        List.of(
            NativeFrame.newBuilder().setModuleIndex(0).setModuleOffset(0x10L).build(),
            NativeFrame.newBuilder().setModuleIndex(0).setModuleOffset(0x20L).build(),
            NativeFrame.newBuilder().setModuleIndex(1).setModuleOffset(0x30L).build());
    return base(id, Platform.native$)
        .setAttributes(Map.of("os", "Linux"))
        .setNative$(
            NativePayload.newBuilder()
                .setArch("amd64")
                .setModules(
                    List.of(
                        NativeModule.newBuilder()
                            .setCodeFile("/usr/lib/libapp.so")
                            .setDebugFile("libapp.so")
                            .setDebugId("0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0")
                            .setImageAddr(0x400000L)
                            .setImageSize(0x10000L)
                            .build(),
                        NativeModule.newBuilder()
                            .setCodeFile("C:\\Windows\\System32\\ntdll.dll")
                            .setDebugFile("ntdll.pdb")
                            .setDebugId("A1B2C3D4E5F60718293A4B5C6D7E8F900")
                            .setImageAddr(0x7f0000L)
                            .setImageSize(0x10000L)
                            .build()))
                .setThreads(
                    List.of(
                        NativeThread.newBuilder()
                            .setCrashed(false)
                            .setFrames(List.of(frames.get(2)))
                            .build(),
                        NativeThread.newBuilder().setCrashed(true).setFrames(frames).build()))
                .build())
        .build();
  }

  /** Native step: the symbolicated frames an engine would give for the event above. */
  static final class FixedNative implements PlatformSymbolicator {
    @Override
    public Platform platform() {
      return Platform.native$;
    }

    @Override
    public SymbolicatedEvent symbolicate(CrashEvent event, SymbolLookup lookup, long now) {
      var b = SymbolicatedEvents.builder(event, now);
      b.getStacks()
          .add(
              SymbolicatedEvents.stack(
                  StackKind.thread,
                  0,
                  List.of(
                      SymbolicatedEvents.frame(0, FrameStatus.missing_symbols, "no symbols")
                          .setModuleIndex(1)
                          .setModuleOffset(0x30L)
                          .build())));
      b.getStacks()
          .add(
              SymbolicatedEvents.stack(
                  StackKind.thread,
                  1,
                  List.of(
                      sym(0, true, "mozilla::detail::Inner(int) const", "src/inner.h", 12),
                      sym(0, false, "void app::Outer<int>::run(char const*)", "src/outer.cpp", 40),
                      sym(1, false, "app::main(int, char**)", "src/main.cpp", 7),
                      SymbolicatedEvents.frame(2, FrameStatus.missing_symbols, "no symbols")
                          .setModuleIndex(1)
                          .setModuleOffset(0x30L)
                          .build())));
      return b.build();
    }

    private static SymbolicatedFrame sym(
        int index, boolean inlined, String function, String file, int line) {
      return SymbolicatedEvents.frame(index, FrameStatus.symbolicated, null)
          .setInlined(inlined)
          .setModuleIndex(0)
          .setModuleOffset(index == 0 ? 0x10L : 0x20L)
          .setFunction(function)
          .setFile(file)
          .setLine(line)
          .build();
    }
  }

  /** What the native frames above are in siggen's schema (module names are file names). */
  static CrashData nativeCrashData() {
    CrashFrame f0 =
        CrashFrame.builder()
            .function("void app::Outer<int>::run(char const*)")
            .file("src/outer.cpp")
            .line(40)
            .module("libapp.so")
            .moduleOffset("0x10")
            .offset("0x400010")
            .addInline(CrashFrame.inline("mozilla::detail::Inner(int) const", "src/inner.h", 12))
            .build();
    CrashFrame f1 =
        CrashFrame.builder()
            .function("app::main(int, char**)")
            .file("src/main.cpp")
            .line(7)
            .module("libapp.so")
            .moduleOffset("0x20")
            .offset("0x400020")
            .build();
    CrashFrame f2 =
        CrashFrame.builder().module("ntdll.dll").moduleOffset("0x30").offset("0x7f0030").build();
    return CrashData.builder()
        .os("Linux")
        .crashingThread(1)
        .addThread(CrashThread.of(List.of(f2)))
        .addThread(CrashThread.of(List.of(f0, f1, f2)))
        .build();
  }

  @Test
  void nativeEventsGetTheGeneratorsSignatureOfTheirCrashingThread() {
    start(TopologyConfig.defaults());
    SymbolicatedEvent got = roundTrip(nativeEvent("n-1"));
    SignatureResult expected = SignatureGenerator.withDefaultLists().generate(nativeCrashData());
    assertSigned(got, expected);
    // the inlined callee comes first: the signature is made of symbolicated names, not offsets
    assertThat(got.getSignature()).startsWith("mozilla::detail::Inner");
    assertThat(got.getProtoSignature()).contains("app::main").contains("ntdll.dll");
  }

  @Test
  void theListsComeFromTheConfiguration() throws Exception {
    SignatureLists lists =
        SignatureLists.of(Map.of(SignatureLists.IRRELEVANT, List.of("mozilla::detail::.*")));
    start(TopologyConfig.defaults().withSignatureLists(lists));
    SymbolicatedEvent got = roundTrip(nativeEvent("n-2"));
    SignatureResult expected = new SignatureGenerator(lists).generate(nativeCrashData());
    assertSigned(got, expected);
    assertThat(got.getSignature())
        .doesNotContain("mozilla::detail::Inner")
        .isNotEqualTo(
            SignatureGenerator.withDefaultLists().generate(nativeCrashData()).signature());
  }

  // ---- JVM: frames caller first (Sentry's order); the first is not in the mapping

  static CrashEvent jvmEvent(String id) {
    return base(id, Platform.jvm)
        .setJvm(
            JvmPayload.newBuilder()
                .setExceptions(
                    List.of(
                        JvmException.newBuilder()
                            .setType("a")
                            .setModule("o.b")
                            .setValue("boom")
                            .setFrames(
                                List.of(
                                    JvmFrame.newBuilder()
                                        .setModule("android.os.Looper")
                                        .setFunction("loop")
                                        .setFilename("Looper.java")
                                        .setLineno(5)
                                        .build(),
                                    JvmFrame.newBuilder()
                                        .setModule("o.c")
                                        .setFunction("a")
                                        .setLineno(12)
                                        .build()))
                            .build()))
                .build())
        .build();
  }

  static final class FixedJvm implements PlatformSymbolicator {
    @Override
    public Platform platform() {
      return Platform.jvm;
    }

    @Override
    public SymbolicatedEvent symbolicate(CrashEvent event, SymbolLookup lookup, long now) {
      var b = SymbolicatedEvents.builder(event, now);
      b.getExceptions()
          .add(
              RemappedException.newBuilder()
                  .setIndex(0)
                  .setType("CartException")
                  .setModule("com.shop.cart")
                  .build());
      b.getStacks()
          .add(
              SymbolicatedEvents.stack(
                  StackKind.exception,
                  0,
                  List.of(
                      SymbolicatedEvents.frame(0, FrameStatus.no_symbol, "class not in the mapping")
                          .build(),
                      // frame 1 retraces to an inlined helper and its caller, innermost first
                      SymbolicatedEvents.frame(1, FrameStatus.symbolicated, null)
                          .setClassName("com.shop.cart.Prices")
                          .setFunction("total")
                          .setFile("Prices.java")
                          .setLine(30)
                          .setInlined(true)
                          .build(),
                      SymbolicatedEvents.frame(1, FrameStatus.symbolicated, null)
                          .setClassName("com.shop.cart.Cart")
                          .setFunction("add")
                          .setFile("Cart.java")
                          .setLine(12)
                          .build())));
      return b.build();
    }
  }

  @Test
  void jvmEventsGetTheJavaExceptionSignatureOfTheRemappedTrace() {
    start(TopologyConfig.defaults());
    SymbolicatedEvent got = roundTrip(jvmEvent("v-1"));
    CrashData data =
        CrashData.builder()
            .javaException(
                JavaException.of(
                    new JavaStackTrace(
                        "CartException",
                        "com.shop.cart",
                        "boom",
                        List.of(
                            new JavaFrame("com.shop.cart.Prices", "total", "Prices.java"),
                            new JavaFrame("com.shop.cart.Cart", "add", "Cart.java"),
                            new JavaFrame("android.os.Looper", "loop", "Looper.java")))))
            .build();
    assertSigned(got, SignatureGenerator.withDefaultLists().generate(data));
    assertThat(got.getSignature()).contains("CartException").contains("Prices.total");
  }

  // ---- JavaScript: frames caller first; the minified ones map to sources

  static CrashEvent jsEvent(String id) {
    String url = "https://shop.example/static/main.3f2a1b9c.js";
    return base(id, Platform.javascript)
        .setJavascript(
            JsPayload.newBuilder()
                .setExceptions(
                    List.of(
                        JsException.newBuilder()
                            .setType("TypeError")
                            .setValue("x is undefined")
                            .setFrames(
                                List.of(
                                    JsFrame.newBuilder()
                                        .setAbsPath(url)
                                        .setLineno(1)
                                        .setColno(10)
                                        .setFunction("m")
                                        .build(),
                                    JsFrame.newBuilder()
                                        .setAbsPath(url)
                                        .setLineno(1)
                                        .setColno(20)
                                        .setFunction("n")
                                        .build(),
                                    JsFrame.newBuilder()
                                        .setAbsPath("https://shop.example/node_modules/lib.js")
                                        .setLineno(3)
                                        .setColno(4)
                                        .setFunction("forEach")
                                        .build()))
                            .build()))
                .build())
        .build();
  }

  static final class FixedJs implements PlatformSymbolicator {
    @Override
    public Platform platform() {
      return Platform.javascript;
    }

    @Override
    public SymbolicatedEvent symbolicate(CrashEvent event, SymbolLookup lookup, long now) {
      var b = SymbolicatedEvents.builder(event, now);
      b.getStacks()
          .add(
              SymbolicatedEvents.stack(
                  StackKind.exception,
                  0,
                  List.of(
                      SymbolicatedEvents.frame(0, FrameStatus.symbolicated, null)
                          .setFunction("async onClick")
                          .setFile("src/ui/Button.tsx")
                          .setLine(8)
                          .setColumn(3)
                          .build(),
                      SymbolicatedEvents.frame(1, FrameStatus.symbolicated, null)
                          .setFunction("Cart.add")
                          .setFile("src/cart.ts")
                          .setLine(20)
                          .setColumn(5)
                          .build(),
                      SymbolicatedEvents.frame(2, FrameStatus.unknown_module, "no debug id")
                          .build())));
      return b.build();
    }
  }

  @Test
  void jsEventsGetOurJavaScriptSignatureOfTheSourceFrames() {
    start(TopologyConfig.defaults());
    SymbolicatedEvent got = roundTrip(jsEvent("j-1"));
    CrashData data =
        CrashData.builder()
            .jsException(
                new io.symbolicate.signatures.JsException(
                    "TypeError",
                    "x is undefined",
                    List.of(
                        new io.symbolicate.signatures.JsFrame(
                            "forEach", "https://shop.example/node_modules/lib.js", 3, 4, null),
                        new io.symbolicate.signatures.JsFrame(
                            "Cart.add", "src/cart.ts", 20, 5, null),
                        new io.symbolicate.signatures.JsFrame(
                            "async onClick", "src/ui/Button.tsx", 8, 3, null))))
            .build();
    assertSigned(got, SignatureGenerator.withDefaultLists().generate(data));
    assertThat(got.getSignature()).isEqualTo("TypeError | Cart.add | onClick");
  }

  @Test
  void anEventWithoutFramesIsSignedToo() {
    start(TopologyConfig.defaults());
    CrashEvent e = base("e-1", Platform.jvm).setJvm(JvmPayload.newBuilder().build()).build();
    SymbolicatedEvent got = roundTrip(e);
    assertSigned(got, SignatureGenerator.withDefaultLists().generate(CrashData.builder().build()));
    assertThat(got.getSignature()).startsWith("EMPTY");
  }

  private static CrashEvent.Builder base(String id, Platform p) {
    return CrashEvent.newBuilder()
        .setEventId(id)
        .setPlatform(p)
        .setReceivedAt(Instant.ofEpochMilli(1_700_000_000_000L));
  }
}
