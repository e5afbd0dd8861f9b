package io.symbolicate.symbolication.apple;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.schema.Attachment;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.NativeFrame;
import io.symbolicate.schema.NativeModule;
import io.symbolicate.schema.NativePayload;
import io.symbolicate.schema.NativeThread;
import io.symbolicate.schema.Platform;
import io.symbolicate.symbols.apple.AppleCrashReportException;
import io.symbolicate.symbols.apple.AppleCrashReportParser;
import io.symbolicate.symbols.apple.AppleNativeConverter;
import io.symbolicate.symbols.apple.AppleThread;
import io.symbolicate.symbols.apple.NativeCrash;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An event carrying an Apple report becomes a native event with the report's modules, threads
 * and header facts, the event's own fields kept ({@code ../shared/fixtures/apple-crash}).
 */
public class AppleReportEventsTest {
  static final Path DIR = SharedFixtures.fixtures("apple-crash");
  public static final Path SENTRY_REPORT =
      DIR.resolve("symbolicator/tests/fixtures/apple_crash_report.txt");

  public static CrashEvent carrying(Attachment report) {
    return CrashEvent.newBuilder()
        .setEventId("apple-1")
        .setScope("acme")
        .setPlatform(Platform.native$)
        .setRelease("mac@1.0")
        .setAttributes(Map.of("source", "test", "os", "producer's os"))
        .setNative$(
            NativePayload.newBuilder()
                .setAppleCrashReport(report)
                .setModules(List.of(NativeModule.newBuilder().setCodeFile("stale").build()))
                .setThreads(List.of(NativeThread.newBuilder().build()))
                .build())
        .build();
  }

  public static Attachment text(String report) {
    return Attachment.newBuilder().setText(report).build();
  }

  public static Attachment data(byte[] report) {
    return Attachment.newBuilder().setData(ByteBuffer.wrap(report)).build();
  }

  @Test
  void textReportBecomesModulesThreadsAndAttributes() throws Exception {
    String report = Files.readString(SENTRY_REPORT, StandardCharsets.UTF_8);
    CrashEvent e = AppleReportEvents.expandInline(carrying(text(report)));
    NativeCrash crash = AppleNativeConverter.convert(AppleCrashReportParser.parse(report));

    assertThat(e.getEventId()).isEqualTo("apple-1");
    assertThat(e.getScope()).isEqualTo("acme");
    assertThat(e.getRelease()).isEqualTo("mac@1.0");
    NativePayload p = e.getNative$();
    assertThat(p.getAppleCrashReport()).as("dropped once read").isNull();
    assertThat(p.getArch()).isEqualTo("amd64");
    assertThat(p.getModules()).hasSize(5);
    NativeModule app = p.getModules().get(0);
    assertThat(app.getType()).isEqualTo("macho");
    assertThat(app.getDebugFile()).isEqualTo("YetAnotherMac");
    assertThat(app.getDebugId()).isEqualTo("2D903291397D3D14BFCA52C7FB8C5E000");
    assertThat(app.getCodeId()).isEqualTo("2d903291397d3d14bfca52c7fb8c5e00");
    assertThat(app.getImageAddr()).isEqualTo(0x10864e000L);
    assertThat(app.getImageSize()).isEqualTo(0x10ee0ffffL - 0x10864e000L + 1);

    assertThat(p.getThreads()).hasSize(crash.threads().size());
    NativeThread t1 = p.getThreads().get(1);
    assertThat(t1.getCrashed()).isTrue();
    assertThat(t1.getName()).isEqualTo("Test Thread Name");
    assertThat(p.getThreads().get(0).getCrashed()).isFalse();
    // frame 10 of thread 0 is in the app: module-relative; frame 0 is in no listed image: absolute
    NativeFrame inApp = p.getThreads().get(0).getFrames().get(10);
    assertThat(inApp.getModuleIndex()).isZero();
    assertThat(inApp.getModuleOffset()).isEqualTo(0x108b7092bL - 0x10864e000L);
    assertThat(inApp.getInstructionAddr()).isNull();
    assertThat(inApp.getTrust()).isNull();
    NativeFrame outside = p.getThreads().get(0).getFrames().get(0);
    assertThat(outside.getModuleIndex()).isNull();
    assertThat(outside.getInstructionAddr()).isEqualTo(0x7fff61bc6c2aL);
    assertThat(outside.getTrust()).isEqualTo("context");

    Map<String, String> a = e.getAttributes();
    assertThat(a)
        .containsEntry("source", "test")
        .containsEntry(AppleReportEvents.OS, "producer's os") // the producer's value wins
        .containsEntry(AppleReportEvents.REASON, "SIGSEGV")
        .containsEntry(AppleReportEvents.EXCEPTION_TYPE, "SIGSEGV")
        .containsEntry(AppleReportEvents.OS_VERSION, "Mac OS X 10.14.0 (18A391)")
        .containsEntry(AppleReportEvents.APP_VERSION, "4.21.1")
        .containsEntry(AppleReportEvents.HARDWARE_MODEL, "MacBookPro14,3")
        .containsEntry(AppleReportEvents.IDENTIFIER, "com.YourCompany.YetAnotherMac")
        .containsEntry(AppleReportEvents.CODE_TYPE, "X86-64 (Native)")
        .containsEntry(AppleReportEvents.CRASH_TIME, "2019-01-09T17:42:22Z")
        .containsEntry(AppleReportEvents.REPORT_FORMAT, "text")
        .containsKey(AppleReportEvents.EXCEPTION_CODES)
        .containsKey(AppleReportEvents.CRASH_DETAILS);
  }

  @Test
  void bytesAndTextGiveTheSameEventAndTextWins() throws Exception {
    byte[] report = Files.readAllBytes(SENTRY_REPORT);
    CrashEvent fromData = AppleReportEvents.expandInline(carrying(data(report)));
    CrashEvent fromText =
        AppleReportEvents.expandInline(carrying(text(new String(report, StandardCharsets.UTF_8))));
    CrashEvent byReference = AppleReportEvents.withReport(carrying(null), report);
    assertThat(fromData).isEqualTo(fromText).isEqualTo(byReference);
    // both given: the text is read
    Attachment both =
        Attachment.newBuilder()
            .setText(new String(report, StandardCharsets.UTF_8))
            .setData(ByteBuffer.wrap("garbage".getBytes(StandardCharsets.UTF_8)))
            .build();
    assertThat(AppleReportEvents.expandInline(carrying(both))).isEqualTo(fromText);
  }

  @Test
  void ipsAndItsTextRenderingGiveTheSameModulesAndThreads() throws Exception {
    Path sym = DIR.resolve("SYM/SYMTests");
    CrashEvent ips =
        AppleReportEvents.withReport(
            carrying(null), Files.readAllBytes(sym.resolve("AppleJson.ips")));
    CrashEvent text =
        AppleReportEvents.withReport(
            carrying(null), Files.readAllBytes(sym.resolve("AppleConverted.log")));
    assertThat(ips.getNative$().getModules()).isEqualTo(text.getNative$().getModules()).hasSize(13);
    assertThat(ips.getNative$().getThreads()).isEqualTo(text.getNative$().getThreads()).hasSize(8);
    assertThat(ips.getNative$().getArch()).isEqualTo("arm64");
    assertThat(ips.getAttributes().get(AppleReportEvents.REPORT_FORMAT)).isEqualTo("ips_json");
    assertThat(text.getAttributes().get(AppleReportEvents.REPORT_FORMAT)).isEqualTo("text");
    assertThat(ips.getAttributes().get(AppleReportEvents.EXCEPTION_TYPE))
        .isEqualTo(text.getAttributes().get(AppleReportEvents.EXCEPTION_TYPE))
        .isNotNull();
  }

  @Test
  void eventsWithoutAnInlineReportAreLeftAlone() throws Exception {
    CrashEvent byRef =
        carrying(Attachment.newBuilder().setBucket("dumps").setKey("r/1.crash").build());
    assertThat(AppleReportEvents.hasInlineReport(byRef)).isFalse();
    assertThat(AppleReportEvents.hasReport(byRef)).isTrue();
    assertThat(AppleReportEvents.expandInline(byRef)).isSameAs(byRef);
    CrashEvent none = carrying(null);
    assertThat(AppleReportEvents.hasReport(none)).isFalse();
    assertThat(AppleReportEvents.expandInline(none)).isSameAs(none);
  }

  @Test
  void hostileReportsAreRefusedWithTheParsersReason() {
    assertThatThrownBy(() -> AppleReportEvents.expandInline(carrying(text(""))))
        .isInstanceOf(AppleCrashReportException.class)
        .hasMessageContaining("empty");
    assertThatThrownBy(
            () ->
                AppleReportEvents.expandInline(
                    carrying(data(new byte[] {(byte) 0xff, (byte) 0xfe, 0}))))
        .isInstanceOf(AppleCrashReportException.class)
        .hasMessageContaining("UTF-8");
    assertThatThrownBy(() -> AppleReportEvents.expandInline(carrying(text("hello\nworld\n"))))
        .isInstanceOf(AppleCrashReportException.class)
        .hasMessageContaining("not an Apple crash report");
    assertThatThrownBy(
            () ->
                AppleReportEvents.expandInline(
                    carrying(text("{\"bug_type\": \"309\"}\n{\"threads\": 7"))))
        .isInstanceOf(AppleCrashReportException.class);
    assertThatThrownBy(() -> AppleReportEvents.withReport(carrying(null), new byte[(16 << 20) + 1]))
        .isInstanceOf(AppleCrashReportException.class)
        .hasMessageContaining("larger than");
  }

  @Test
  void longHeaderValuesAreCut() throws Exception {
    String report =
        Files.readString(SENTRY_REPORT, StandardCharsets.UTF_8)
            .replace(
                "Hardware Model:      MacBookPro14,3", "Hardware Model:      " + "M".repeat(5000));
    CrashEvent e = AppleReportEvents.expandInline(carrying(text(report)));
    assertThat(e.getAttributes().get(AppleReportEvents.HARDWARE_MODEL))
        .hasSize(AppleReportEvents.MAX_ATTRIBUTE_CHARS);
  }

  @Test
  void crashedThreadOfTheParseIsTheEventsCrashedThread() throws Exception {
    var report = AppleCrashReportParser.parse(SENTRY_REPORT);
    CrashEvent e = AppleReportEvents.of(carrying(null), report);
    for (int t = 0; t < report.threads().size(); t++) {
      AppleThread at = report.threads().get(t);
      assertThat(e.getNative$().getThreads().get(t).getCrashed()).isEqualTo(at.crashed());
      assertThat(e.getNative$().getThreads().get(t).getFrames()).hasSize(at.frames().size());
    }
  }
}
