package io.symbolicate.symbols.apple;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The line rules of a text report, case by case: those of apple-crash-report-parser (what its
 * snapshots do not show) and the places where we differ from it on purpose.
 */
class AppleTextSemanticsTest {
  private static AppleCrashReport parse(String s) throws AppleCrashReportException {
    return AppleCrashReportParser.parse(s);
  }

  private static AppleFrame frame(String line) throws AppleCrashReportException {
    return parse("Thread 0:\n" + line + "\n").threads().get(0).frames().get(0);
  }

  @Test
  void frameForms() throws Exception {
    AppleFrame f =
        frame(
            "3   DemoApp                        0x100b32844        UmengSignalHandler (in DemoApp) + 128");
    assertThat(f.module()).isEqualTo("DemoApp");
    assertThat(f.symbol()).isEqualTo("UmengSignalHandler (in DemoApp)");
    assertThat(f.instructionAddr()).isEqualTo(0x100b32844L);
    // the first " (" opens the file part, as in the reference pattern
    f = frame("29 DemoApp 0x100100ea0 main (in DemoApp) (main.m:14)");
    assertThat(f.symbol()).isEqualTo("main");
    assertThat(f.filename()).isEqualTo("in DemoApp) (main.m");
    assertThat(f.lineno()).isEqualTo(14);
    f = frame("0   App Namespace 0x0000000102268e70 0x10211c000 + 1363568");
    assertThat(f.module()).isEqualTo("App Namespace");
    assertThat(f.symbol()).isNull();
    f = frame("2   ???  0x0000000054485244 0x0 + 0");
    assertThat(f.module()).isNull();
    f =
        frame(
            "1   Foundation\t0x182348144 -[NSObject(NSKeyValueObserverNotification) willChange:] + 124");
    assertThat(f.symbol()).isEqualTo("-[NSObject(NSKeyValueObserverNotification) willChange:]");
    f = frame("5   App 0xffffffffffffffff 0x123");
    assertThat(f.instructionAddr()).isEqualTo(-1L);
    assertThat(f.symbol()).isNull();
    // an address with nothing after it is no frame line: the thread ends there
    assertThat(
            parse("Thread 0:\n0   App 0x1\n1   App 0x2 f\nProcess: x\n").threads().get(0).frames())
        .isEmpty();
  }

  @Test
  void imageForms() throws Exception {
    BinaryImage i =
        parse(
                "Binary Images:\n   0x1 -    0x2 +My App x86_64 (1.0 - 1) <2D903291-397D-3D14-BFCA-52C7FB8C5E00> /A/My App\n")
            .binaryImages()
            .get(0);
    assertThat(i.name()).isEqualTo("My App");
    assertThat(i.arch()).isEqualTo("x86_64");
    assertThat(i.version()).isEqualTo("1.0 - 1");
    assertThat(i.uuid()).isEqualTo("2d903291-397d-3d14-bfca-52c7fb8c5e00");
    assertThat(i.path()).isEqualTo("/A/My App");
    assertThat(i.reportedSize()).isEqualTo(1);
    // an image that spans everything (Apple's placeholder for unknown code) holds no frame
    String everything =
        "0x0 - 0xffffffffffffffff ??? (*)  <00000000-0000-0000-0000-000000000000> ???\n";
    i = parse("Binary Images:\n" + everything).binaryImages().get(0);
    assertThat(i.arch()).isEqualTo("(*)");
    assertThat(i.spansEverything()).isTrue();
    assertThat(AppleReportJson.toJson(parse("Binary Images:\n" + everything)))
        .contains("\"size\": 18446744073709551615");
    NativeCrash c =
        AppleNativeConverter.convert(
            parse("Thread 0:\n0 ??? 0x5 f\nBinary Images:\n" + everything));
    assertThat(c.threads().get(0).frames().get(0).moduleIndex()).isEqualTo(-1);
    assertThat(c.modules().get(0).imageSize()).isEqualTo(-1L);
    // Apple writes it with one space before <uuid>: the reference pattern does not match such a
    // line (nor macOS 12's "name (version) <uuid> path" without arch); the section ends there,
    // and a whole last line like it is no truncation
    assertThat(
            parse("Process: p\nBinary Images:\n" + everything.replace(")  <", ") <"))
                .binaryImages())
        .isEmpty();
    // one space between arch and <uuid> and no version: not an image line, the section ends
    assertThat(
            parse(
                    "Binary Images:\n0x1 - 0x2 App arm64 <6bc32e62110531eebcdeab97b76d5507> /App\nProcess: x\n")
                .binaryImages())
        .isEmpty();
  }

  @Test
  void headerRules() throws Exception {
    AppleCrashReport r =
        parse(
            """
        Incident Identifier: {5C32DF84-31A0-43E7-87D0-239F7F594940}
        Crashed Thread:  5
        Date/Time:       2019-01-09 17:42:22.5 +05:30
        Process:   A: B
        Exception Type: X
        Exception Type: Y
        """);
    assertThat(r.incidentIdentifier()).isEqualTo("5c32df84-31a0-43e7-87d0-239f7f594940");
    assertThat(r.metadata())
        .doesNotContainKey("Crashed Thread")
        .containsEntry("Process", "A: B")
        .containsEntry("Exception Type", "Y");
    assertThat(r.timestamp()).isEqualTo(Instant.parse("2019-01-09T12:12:22.5Z"));
    assertThat(AppleReportJson.toJson(r)).contains("\"timestamp\": \"2019-01-09T12:12:22.500Z\"");
    assertThat(r.reportVersion()).isZero();
  }

  @Test
  void sections() throws Exception {
    AppleCrashReport r =
        parse(
            "Process: p\nApplication Specific Information:\n\nline one\n  line two\n\n\nFiltered syslog:\nNone found\n\nThread 0:\n");
    // leading blank lines vanish, one trailing newline is dropped
    assertThat(r.applicationSpecificInformation()).isEqualTo("line one\n  line two\n");
    assertThat(r.filteredSyslog()).isEqualTo("None found");
  }

  /** Registers go to the first crashed thread; without one they are dropped. */
  @Test
  void registersOnlyOnTheCrashedThread() throws Exception {
    String state =
        "Thread 1 crashed with X86-64 Thread State:\n  rip: 0x0000000000001000 rflags: 0x2  junk: 0xZZ ab-cd: 0x3\n\n";
    AppleCrashReport r = parse("Thread 0:\nThread 1 Crashed:\n" + state);
    assertThat(r.threads().get(0).registers()).isNull();
    assertThat(r.threads().get(1).registers())
        .containsExactly(Map.entry("cd", 3L), Map.entry("rflags", 2L), Map.entry("rip", 0x1000L));
    assertThat(parse("Thread 0:\n" + state).threads().get(0).registers()).isNull();
  }

  /** Differs from the reference: "ARM Thread State (64-bit):" starts the registers. */
  @Test
  void armThreadStateHeader() throws Exception {
    AppleCrashReport r =
        parse(
            "Thread 0 Crashed:\n\nThread 0 crashed with ARM Thread State (64-bit):\n"
                + "    x0: 0x000000000000000b   x1: 0x0000000000000000\n   far: 0x0000000102e1c050  esr: 0x56000080  Address size fault\n");
    assertThat(r.threads().get(0).registers()).containsOnlyKeys("x0", "x1", "far", "esr");
    assertThat(r.metadata()).isEmpty();
  }

  /** Differs from the reference: a name that is only "Dispatch queue: q" is the queue. */
  @Test
  void threadNamesAndQueues() throws Exception {
    AppleCrashReport r =
        parse(
            """
        Thread 0 name:   Dispatch queue: com.apple.main-thread
        Thread 0 Crashed: Header Name
        Thread 1 name:  worker  Dispatch queue: q1
        Thread 1:
        Thread 2 Crashed:: Dispatch queue: com.apple.root
        Thread 3:: CVDisplayLink
        Thread 4 name:  com.apple.uikit.eventfetch-thread
        Thread 4:
        """);
    assertThat(r.threads())
        .extracting(AppleThread::name)
        .containsExactly(
            "Header Name", "worker", null, "CVDisplayLink", "com.apple.uikit.eventfetch-thread");
    assertThat(r.threads())
        .extracting(AppleThread::dispatchQueue)
        .containsExactly("com.apple.main-thread", "q1", "com.apple.root", null, null);
    assertThat(r.threads())
        .extracting(AppleThread::crashed)
        .containsExactly(true, false, true, false, false);
  }

  @Test
  void breakpadArchFromCodeType() {
    assertThat(AppleNativeConverter.breakpadArch("X86-64 (Native)", null)).isEqualTo("amd64");
    assertThat(AppleNativeConverter.breakpadArch("ARM-64 (Native)", null)).isEqualTo("arm64");
    assertThat(AppleNativeConverter.breakpadArch("ARM", null)).isEqualTo("arm");
    assertThat(AppleNativeConverter.breakpadArch("X86 (Translated)", null)).isEqualTo("x86");
    assertThat(AppleNativeConverter.breakpadArch("PPC", "ppc")).isNull();
    assertThat(AppleNativeConverter.breakpadArch(null, "(x86_64)")).isEqualTo("amd64");
    assertThat(AppleNativeConverter.breakpadArch(null, "arm64e")).isEqualTo("arm64");
  }

  @Test
  void overlappingImagesAndBoundaries() throws Exception {
    NativeCrash c =
        AppleNativeConverter.convert(
            parse(
                """
        Thread 0:
        0 A 0x1000 f
        1 A 0x1fff f
        2 A 0x2000 f
        3 B 0x2800 f
        4 A 0x0fff f

        Binary Images:
        0x1000 - 0x2fff A arm64  <6bc32e62110531eebcdeab97b76d5507> /A
        0x1800 - 0x1fff B arm64  <7b1733b174c93a338a58853b0a029826> /B
        """));
    assertThat(c.threads().get(0).frames())
        .extracting(NativeCrash.Frame::moduleIndex)
        .containsExactly(0, 1, 0, 0, -1);
    assertThat(c.threads().get(0).frames())
        .extracting(NativeCrash.Frame::moduleOffset)
        .containsExactly(0L, 0x7ffL, 0x1000L, 0x1800L, 0L);
    assertThat(c.threads().get(0).frames())
        .extracting(NativeCrash.Frame::trust)
        .containsExactly("context", null, null, null, null);
    assertThat(c.modules().get(0).imageSize()).isEqualTo(0x2000);
  }
}
