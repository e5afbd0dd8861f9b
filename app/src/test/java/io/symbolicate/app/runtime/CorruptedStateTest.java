package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.processor.TaskId;
import org.junit.jupiter.api.Test;

/** A thread that fails on state left dirty by a kill is a warning, anything else an error. */
class CorruptedStateTest {
  @Test
  void dirtyStateIsToldFromOtherFailures() {
    var corrupted = new TaskCorruptedException(Set.of(new TaskId(1, 0)));
    assertThat(SymbolicatorApp.isCorruptedState(corrupted)).isTrue();
    assertThat(
            SymbolicatorApp.isCorruptedState(
                new StreamsException("wrapped", new StreamsException(corrupted))))
        .isTrue();
    assertThat(
            SymbolicatorApp.isCorruptedState(
                new StreamsException("send failed", new IllegalStateException())))
        .isFalse();
  }
}
