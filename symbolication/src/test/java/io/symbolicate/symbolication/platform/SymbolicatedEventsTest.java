package io.symbolicate.symbolication.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.StackKind;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.SymbolicatedStack;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The helpers build the same records as Avro's builders, and refuse what those refuse. */
class SymbolicatedEventsTest {

  @Test
  void moduleAndStackEqualWhatAvrosBuildersMake() {
    assertThat(SymbolicatedEvents.module(3, "a.pdb/ABC1", ModuleStatus.missing, "not found"))
        .isEqualTo(
            ModuleResult.newBuilder()
                .setIndex(3)
                .setKey("a.pdb/ABC1")
                .setStatus(ModuleStatus.missing)
                .setMessage("not found")
                .build());
    assertThat(SymbolicatedEvents.module(0, null, ModuleStatus.unused, null))
        .isEqualTo(
            ModuleResult.newBuilder()
                .setIndex(0)
                .setKey(null)
                .setStatus(ModuleStatus.unused)
                .setMessage(null)
                .build());
    List<SymbolicatedFrame> frames =
        List.of(SymbolicatedEvents.frame(0, FrameStatus.no_symbol, "none").build());
    assertThat(SymbolicatedEvents.stack(StackKind.thread, 2, frames))
        .isEqualTo(
            SymbolicatedStack.newBuilder()
                .setKind(StackKind.thread)
                .setIndex(2)
                .setFrames(frames)
                .build());
  }

  @Test
  void missingRequiredValuesAreRefusedWhereTheyAreSet() {
    // thrown inside the platform step (which dead-letters the event), not later by the sink's
    // serializer
    assertThatThrownBy(() -> SymbolicatedEvents.module(1, "k", null, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("status");
    assertThatThrownBy(() -> SymbolicatedEvents.stack(null, 0, List.of()))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("kind");
    assertThatThrownBy(() -> SymbolicatedEvents.stack(StackKind.thread, 0, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("frames");
  }
}
