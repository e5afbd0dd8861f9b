package io.symbolicate.symbolication.jvm;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.connectors.loader.jvm.JvmTableConverter;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.JvmFrame;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.symbolication.platform.SymbolicatedEvents;
import io.symbolicate.symbolication.store.TablesLookup;
import io.symbolicate.symbols.jvm.Retracer;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.testkit.events.SampleEvents;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JvmSymbolicatorTest {

  /**
   * A mapping of a few KB in which one method has 4,000 entries, each a range of 1,000 original
   * lines without an obfuscated range: every original line is a candidate, so one frame retraced
   * to 4 million alternatives and an event of 20,000 such frames exhausted the heap on every
   * attempt. A lookup now gives at most 1,000 frames, and an event at most 50,000 beyond one per
   * input frame; what is left out is said on the frame.
   */
  @Test
  void ambiguousExpansionIsBoundedPerFrameAndPerEvent() throws Exception {
    StringBuilder mapping = new StringBuilder("io.example.Original -> a:\n");
    for (int i = 0; i < 4000; i++) {
      mapping
          .append("    void m")
          .append(i % 2)
          .append("():")
          .append(1 + i)
          .append(":")
          .append(1000 + i)
          .append(" -> b\n");
    }
    var table =
        new JvmTableConverter()
            .convert(
                new ByteArrayInputStream(mapping.toString().getBytes(StandardCharsets.UTF_8)),
                1L << 30);
    CrashEvent e = SampleEvents.jvmEvent("expanding");
    String uuid = e.getJvm().getModules().get(0).getUuid();
    TablesLookup lookup =
        new TablesLookup().found(new ModuleRef("global", TableKind.JVM, uuid), table);
    int n = 100;
    List<JvmFrame> frames = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      frames.add(JvmFrame.newBuilder().setModule("a").setFunction("b").setLineno(5).build());
    }
    e.getJvm().getExceptions().get(0).setFrames(frames);

    List<SymbolicatedFrame> out =
        new JvmSymbolicator().symbolicate(e, lookup, 0L).getStacks().get(0).getFrames();
    int[] per = new int[n];
    for (SymbolicatedFrame f : out) {
      assertThat(f.getStatus()).isEqualTo(FrameStatus.symbolicated);
      assertThat(f.getClassName()).isEqualTo("io.example.Original");
      per[f.getOriginalIndex()]++;
    }
    assertThat(per[0]).isEqualTo(Retracer.MAX_FRAMES_PER_LOOKUP);
    // frames that would overrun the budget keep their first alternative: it is never exceeded
    assertThat(out.size() - n)
        .isLessThanOrEqualTo(SymbolicatedEvents.MAX_EXTRA_FRAMES_PER_EVENT)
        .isGreaterThan(
            SymbolicatedEvents.MAX_EXTRA_FRAMES_PER_EVENT - Retracer.MAX_FRAMES_PER_LOOKUP);
    assertThat(per[n - 1])
        .as("the event's budget is spent: the first alternative only")
        .isEqualTo(1);
    // the last frame of each input frame says what it left out
    SymbolicatedFrame lastOfFirst = out.get(per[0] - 1);
    assertThat(lastOfFirst.getMessage())
        .contains(Retracer.MAX_FRAMES_PER_LOOKUP + " or more frames retrace");
    SymbolicatedFrame lastOfLast = out.get(out.size() - 1);
    assertThat(lastOfLast.getMessage()).contains("further frames not listed");
  }

  /** A mapping named many times is looked up, needed and retraced against once. */
  @Test
  void aMappingNamedTwiceIsOneRetracer() throws Exception {
    var table =
        new JvmTableConverter()
            .convert(
                new ByteArrayInputStream(
                    "io.example.Original -> a:\n    1:10:void m():1:10 -> b\n"
                        .getBytes(StandardCharsets.UTF_8)),
                1L << 30);
    CrashEvent e = SampleEvents.jvmEvent("twice");
    var module = e.getJvm().getModules().get(0);
    e.getJvm().setModules(List.of(module, module, module));
    e.getJvm()
        .getExceptions()
        .get(0)
        .setFrames(
            List.of(JvmFrame.newBuilder().setModule("a").setFunction("b").setLineno(5).build()));
    TablesLookup lookup =
        new TablesLookup().found(new ModuleRef("global", TableKind.JVM, module.getUuid()), table);
    JvmSymbolicator step = new JvmSymbolicator();
    assertThat(step.modulesNeeded(e)).hasSize(1);
    var out = step.symbolicate(e, lookup, 0L);
    assertThat(out.getModules())
        .hasSize(3)
        .allMatch(m -> m.getStatus() == io.symbolicate.schema.ModuleStatus.found);
    // listed once (it was once per copy, and each copy was a retracer every unknown frame tried)
    assertThat(out.getModulesInStack()).containsExactly(module.getUuid());
    assertThat(out.getStacks().get(0).getFrames()).hasSize(1);
  }
}
