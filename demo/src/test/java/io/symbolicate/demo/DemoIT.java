package io.symbolicate.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The quick start's first command, as CI can check it: one run of the demo, then each step's
 * outcome from its result and its printed summary (docs/demo.md lists the steps).
 */
class DemoIT {
  private static Demo.Result r;
  private static String progress;
  private static String summary;
  // what --keep-running leaves up: the status page, asked while the demo waits in whileUp
  private static int statusWhileUp;

  @BeforeAll
  static void runTheDemo() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    r =
        Demo.run(
            new PrintStream(out, true, StandardCharsets.UTF_8),
            Duration.ofSeconds(120),
            0,
            result -> statusWhileUp = get(result.api().resolve("status")));
    progress = out.toString(StandardCharsets.UTF_8);
    ByteArrayOutputStream s = new ByteArrayOutputStream();
    DemoSummary.print(new PrintStream(s, true, StandardCharsets.UTF_8), r);
    summary = s.toString(StandardCharsets.UTF_8);
  }

  @Test
  void everyRecordCameOutOnceAndTheExitCodeSaysSo() {
    assertThat(r.complete()).as(progress + summary).isTrue();
    assertThat(r.inputs()).hasSize(10);
    assertThat(r.events()).hasSize(6);
    assertThat(r.deadLetters()).hasSize(5);
    assertThat(r.events())
        .extracting(e -> e.getEvent().getEventId().toString())
        .doesNotHaveDuplicates();
    assertThat(summary)
        .contains(
            "11 records in (10 on crash-events.raw + 1 via /submit), 6 symbolicated + 5"
                + " dead-lettered = 11 out (nothing lost); 2 of 2 reprocessed came out again");
  }

  @Test
  void symbolsWentInThroughTheUploadRoutesWithTheKey() {
    assertThat(r.uploads())
        .extracting(Demo.Upload::route)
        .containsExactly(
            "/api/symbols-breakpad", "/api/symbols-sourcemap", "/api/symbols-proguard");
    assertThat(r.uploads()).allSatisfy(u -> assertThat(u.status()).as(u.body()).isEqualTo(200));
    assertThat(r.lateUpload().status()).as(r.lateUpload().body()).isEqualTo(200);
    assertThat(progress).contains("POST /api/symbols-breakpad").contains(r.api() + "submit");
  }

  @Test
  void theSubmittedMinidumpWasStoredWalkedAndSymbolicated() {
    assertThat(r.crashId()).matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    assertThat(progress).contains("CrashID=bp-" + r.crashId());
    assertThat(r.dumpKey()).contains(r.crashId()).endsWith("upload_file_minidump.dmp");
    SymbolicatedEvent dump = event(r.events(), r.crashId());
    assertThat(dump.getEvent().getRelease()).isEqualTo("Crashy@1.0");
    // walked by frame pointer: crash_handler (with its inlined callee), main, libc's caller
    assertThat(functions(dump)).contains("crash_handler(int)", "main");
    assertThat(status(dump, "crashy")).isEqualTo(ModuleStatus.found);
    assertThat(status(dump, "libc.so.6")).isEqualTo(ModuleStatus.missing);
    assertThat(dump.getSignature()).isNotBlank();
  }

  @Test
  void theAppleReportAndTheJsAndJvmEventsCameOutSymbolicated() {
    SymbolicatedEvent apple = event(r.events(), "demo-apple-1");
    assertThat(functions(apple)).contains("crash_handler(int)", "main");
    assertThat(apple.getEvent().getAttributes()).containsEntry("os", "macOS");
    for (String id : List.of("demo-js-1", "demo-jvm-1")) {
      SymbolicatedEvent e = event(r.events(), id);
      assertThat(e.getStacks().get(0).getFrames())
          .as(id)
          .isNotEmpty()
          .allSatisfy(f -> assertThat(f.getStatus()).isEqualTo(FrameStatus.symbolicated));
    }
  }

  @Test
  void everyEventHasASignatureAndTheSummaryShowsIt() {
    for (SymbolicatedEvent e : r.events()) {
      assertThat(e.getSignature()).as(e.getEvent().getEventId().toString()).isNotBlank();
      assertThat(summary).contains("signature: " + e.getSignature());
    }
  }

  @Test
  void badInputsAreDeadLettersWithTheirReasons() {
    assertThat(r.deadLetters())
        .extracting(d -> d.getErrorKind().toString())
        .containsExactlyInAnyOrder(
            "undecodable", "invalid_json", "invalid_event", "unknown_platform", "too_large");
    assertThat(r.deadLetters()).extracting(DeadLetter::getMessage).allMatch(m -> !m.isBlank());
    assertThat(summary).contains("═══ 5 dead letters on crash-events.dlq ═══");
  }

  @Test
  void theTopCrashersCountEveryEventUnderItsSignature() {
    assertThat(r.topCrashersTotal()).isEqualTo(r.events().size());
    assertThat(r.topCrashers()).isNotEmpty();
    assertThat(r.topCrashers().stream().mapToLong(Demo.Crasher::count).sum())
        .isLessThanOrEqualTo(r.topCrashersTotal());
    List<String> signatures = r.events().stream().map(e -> e.getSignature().toString()).toList();
    assertThat(r.topCrashers()).extracting(Demo.Crasher::signature).isSubsetOf(signatures);
    assertThat(summary).contains("top crashers, last 24 h: " + r.events().size() + " crashes");
  }

  @Test
  void theLateUploadMendsTheEventsThatMissedLibc() {
    assertThat(r.reprocessedExpected()).isEqualTo(2);
    assertThat(r.reprocessed())
        .extracting(e -> e.getEvent().getEventId().toString())
        .containsExactlyInAnyOrder("demo-native-1", r.crashId());
    for (SymbolicatedEvent again : r.reprocessed()) {
      assertThat(again.getReprocessed()).isTrue();
      assertThat(status(again, "libc.so.6")).isEqualTo(ModuleStatus.found);
      assertThat(functions(again)).contains("__libc_start_call_main");
    }
  }

  @Test
  void theStatusPageIsServedAndCountsTheEvents() {
    assertThat(r.statusPage()).isEqualTo(200);
    assertThat(r.status()).isNotNull();
    assertThat(r.status().path("events").path("out_total").asLong())
        .isGreaterThanOrEqualTo(r.events().size());
    assertThat(summary).contains(r.api() + "status");
  }

  @Test
  void whileUpTheStatusPageAnswersAndAfterwardsTheServerIsGone() {
    assertThat(statusWhileUp).isEqualTo(200);
    assertThat(get(r.api().resolve("status"))).isEqualTo(-1);
  }

  /** The status of a GET, or -1 when nothing answers. */
  private static int get(URI uri) {
    try {
      return HttpClient.newHttpClient()
          .send(
              HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private static SymbolicatedEvent event(List<SymbolicatedEvent> events, String id) {
    return events.stream()
        .filter(e -> e.getEvent().getEventId().toString().equals(id))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no output for " + id + "\n" + summary));
  }

  private static List<String> functions(SymbolicatedEvent e) {
    return e.getStacks().stream()
        .flatMap(s -> s.getFrames().stream())
        .map(SymbolicatedFrame::getFunction)
        .filter(Objects::nonNull)
        .map(Object::toString)
        .toList();
  }

  private static ModuleStatus status(SymbolicatedEvent e, String debugFile) {
    return e.getModules().stream()
        .filter(m -> m.getKey() != null && m.getKey().toString().startsWith(debugFile + "/"))
        .map(ModuleResult::getStatus)
        .findFirst()
        .orElseThrow(() -> new AssertionError("no module " + debugFile + " in " + e.getModules()));
  }
}
