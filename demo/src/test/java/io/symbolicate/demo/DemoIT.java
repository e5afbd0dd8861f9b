package io.symbolicate.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The quick start's first command, as CI can check it: every record out, the late module reprocessed. */
class DemoIT {
  @Test
  void theDemoLosesNothingAndReprocessesTheEventThatMissedTheLateModule() throws Exception {
    ByteArrayOutputStream progress = new ByteArrayOutputStream();
    Demo.Result r =
        Demo.run(new PrintStream(progress, true, StandardCharsets.UTF_8), Duration.ofSeconds(120));
    assertThat(r.complete()).as(progress.toString(StandardCharsets.UTF_8)).isTrue();
    assertThat(r.events()).hasSize(4);
    assertThat(r.deadLetters()).hasSize(5);
    SymbolicatedEvent first =
        r.events().stream()
            .filter(e -> e.getEvent().getEventId().equals("demo-native-1"))
            .findFirst()
            .orElseThrow();
    assertThat(first.getModules().get(1).getStatus()).isEqualTo(ModuleStatus.missing);

    assertThat(r.reprocessed()).hasSize(1);
    SymbolicatedEvent again = r.reprocessed().get(0);
    assertThat(again.getEvent().getEventId()).isEqualTo("demo-native-1");
    assertThat(again.getReprocessed()).isTrue();
    assertThat(again.getModules().get(1).getStatus()).isEqualTo(ModuleStatus.found);
    assertThat(again.getStacks().get(0).getFrames())
        .extracting(SymbolicatedFrame::getFunction)
        .map(f -> f == null ? null : f.toString())
        .contains("__libc_start_call_main");

    ByteArrayOutputStream summary = new ByteArrayOutputStream();
    DemoSummary.print(new PrintStream(summary, true, StandardCharsets.UTF_8), r);
    assertThat(summary.toString(StandardCharsets.UTF_8))
        .contains(
            "9 records in, 4 symbolicated + 5 dead-lettered = 9 out (nothing lost); 1 of 1 reprocessed");
  }
}
