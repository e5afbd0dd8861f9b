package io.symbolicate.signatures;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Whole crash data through the pipeline with our generic default lists. */
class DefaultListsSignatureTest {
  private static final SignatureGenerator GENERATOR = SignatureGenerator.withDefaultLists();

  @Test
  void linuxAbortSkipsLibcAndKeepsTheCaller() {
    SignatureResult r =
        sign(
            null,
            fn("__pthread_kill_implementation", "libc.so.6"),
            fn("raise", "libc.so.6"),
            fn("abort", "libc.so.6"),
            fn("std::vector<int, std::allocator<int> >::at(unsigned long) const", "app"),
            fn("Engine::tick(double)", "app"),
            fn("main", "app"));
    assertThat(r.signature()).isEqualTo("raise | abort | std::vector<T>::at | Engine::tick");
    assertThat(r.protoSignature())
        .isEqualTo(
            "__pthread_kill_implementation | raise | abort | std::vector<T>::at | Engine::tick | main");
  }

  @Test
  void rustPanicStartsAtTheSentinel() {
    CrashFrame hashPanic =
        CrashFrame.builder()
            .function("core::panicking::panic_fmt::h1a2b3c4d5e6f7a8b")
            .file("/rustc/abc/library/core/src/panicking.rs")
            .build();
    CrashFrame caller =
        CrashFrame.builder()
            .function("app::parser::Parser::next_token::h0123456789abcdef")
            .file("/build/src/parser.rs")
            .line(42)
            .build();
    SignatureResult r =
        sign(
            null,
            fn("std::sys::backtrace::__rust_begin_short_backtrace", "app"),
            fn("std::panicking::rust_panic_with_hook", "app"),
            hashPanic,
            caller,
            fn("main", "app"));
    // as with Socorro's lists, the sentinel is also irrelevant: the panic's caller signs
    assertThat(r.signature()).isEqualTo("app::parser::Parser::next_token");
    assertThat(r.protoSignature())
        .startsWith(
            "std::sys::backtrace::__rust_begin_short_backtrace | "
                + "std::panicking::rust_panic_with_hook | core::panicking::panic_fmt | app::parser::Parser::next_token");
  }

  @Test
  void windowsModuleOnlyFramesAreLowerCasedAndMerged() {
    CrashFrame unsymbolicated =
        CrashFrame.builder().module("GfxDriver.DLL").moduleOffset("0x10").build();
    SignatureResult r =
        sign(
            "Windows NT",
            fn("RtlReportCriticalFailure", "ntdll.dll"),
            unsymbolicated,
            unsymbolicated,
            unsymbolicated,
            fn("Renderer::draw()", "app.exe"));
    assertThat(r.signature()).isEqualTo("gfxdriver.dll | Renderer::draw");
    CrashFrame kernel = CrashFrame.builder().module("KERNELBASE.dll").build();
    assertThat(sign("Windows NT", kernel, kernel, fn("Renderer::draw()", "app.exe")).signature())
        .isEqualTo("kernelbase.dll | Renderer::draw");
  }

  @Test
  void offsetsOnlyFramesAndNoFrames() {
    SignatureResult offsets = sign(null, CrashFrame.builder().offset("0x00007fff0000abcd").build());
    assertThat(offsets.signature()).isEqualTo("@0x7fff0000abcd");
    assertThat(offsets.notes())
        .containsExactly(
            "SignatureGenerationRule: CSignatureTool: no frame data for crashing thread (0)");
    SignatureResult none =
        GENERATOR.generate(CrashData.builder().mdswStatusString("ERROR_NO_THREAD_LIST").build());
    assertThat(none.signature()).isEqualTo("EMPTY: no frame data available; ERROR_NO_THREAD_LIST");
  }

  @Test
  void postRulesCompose() {
    CrashData data =
        CrashData.builder()
            .addThread(CrashThread.of(List.of(fn("Parser::parse()", "app"))))
            .abortMessage("[5392] ###!!! ABORT: invariant broken: file src/p.cpp:12")
            .reason("EXCEPTION_STACK_OVERFLOW")
            .hang("ui")
            .ipcMessageName("PContent::Msg")
            .build();
    SignatureResult r = GENERATOR.generate(data);
    assertThat(r.signature())
        .isEqualTo(
            "hang: ui | stackoverflow | Abort | invariant broken | Parser::parse | IPC_Message_Name=PContent::Msg");
    SignatureResult oom =
        GENERATOR.generate(
            CrashData.builder()
                .addThread(CrashThread.of(List.of(fn("Buffer::grow()", "app"))))
                .oomAllocationSize(1L << 30)
                .build());
    assertThat(oom.signature()).isEqualTo("OOM | large | Buffer::grow");
    SignatureResult small =
        GENERATOR.generate(
            CrashData.builder()
                .addThread(CrashThread.of(List.of(fn("Buffer::grow()", "app"))))
                .oomAllocationSize(64L)
                .build());
    assertThat(small.signature()).isEqualTo("OOM | small");
  }

  @Test
  void longSignaturesAreTruncatedTo255() {
    String name = "ns::" + "VeryLongName".repeat(30);
    SignatureResult r = sign(null, fn(name, "app"));
    assertThat(r.signature()).hasSize(255).endsWith("...");
    assertThat(r.notes())
        .containsExactly("SigTruncate: SigTrunc: signature truncated due to length");
  }

  @Test
  void javaExceptionsUseSiggensJavaRules() {
    JavaStackTrace st =
        new JavaStackTrace(
            "IllegalStateException",
            "java.lang",
            "boom",
            List.of(
                new JavaFrame("com.example.Cart", "add", "Cart.java"),
                new JavaFrame("com.example.Ui", "click", null)));
    SignatureResult r =
        GENERATOR.generate(CrashData.builder().javaException(JavaException.of(st)).build());
    assertThat(r.signature())
        .isEqualTo("java.lang.IllegalStateException: at com.example.Cart.add(Cart.java)");
    assertThat(r.protoSignature()).isEmpty();
    SignatureResult trace =
        GENERATOR.generate(
            CrashData.builder()
                .javaStackTrace(
                    "java.lang.NullPointerException: obj@1a2b3c4d was null\n\tat com.example.Cart.add(Cart.java:12)\n")
                .build());
    assertThat(trace.signature())
        .isEqualTo(
            "java.lang.NullPointerException: obj@<addr> was null at com.example.Cart.add(Cart.java)");
  }

  @Test
  void shutdownHangsSignThreadZero() {
    CrashData data =
        CrashData.builder()
            .crashingThread(1)
            .addThread(
                CrashThread.of(
                    List.of(fn("nsThread::Shutdown()", "app"), fn("Main::quit()", "app"))))
            .addThread(
                CrashThread.of(
                    List.of(fn("mozilla::(anonymous namespace)::RunWatchdog(void*)", "app"))))
            .build();
    assertThat(GENERATOR.generate(data).signature()).isEqualTo("shutdownhang | nsThread::Shutdown");
  }

  private static CrashFrame fn(String function, String module) {
    return CrashFrame.builder().function(function).module(module).build();
  }

  private static SignatureResult sign(String os, CrashFrame... frames) {
    return GENERATOR.generate(
        CrashData.builder().os(os).addThread(CrashThread.of(List.of(frames))).build());
  }
}
