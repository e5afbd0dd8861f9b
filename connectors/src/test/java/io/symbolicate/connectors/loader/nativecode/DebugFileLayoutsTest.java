package io.symbolicate.connectors.loader.nativecode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.symbols.id.DebugFileLayout;
import org.junit.jupiter.api.Test;

/** {@code loader.debug.file.layouts}: per kind of source, the layouts in order. */
class DebugFileLayoutsTest {

  @Test
  void defaults() {
    DebugFileLayouts d = DebugFileLayouts.defaults();
    assertThat(d.of("s3"))
        .containsExactly(
            DebugFileLayout.NATIVE, DebugFileLayout.UNIFIED, DebugFileLayout.DEBUGINFOD);
    assertThat(d.of("dir"))
        .containsExactly(
            DebugFileLayout.NATIVE,
            DebugFileLayout.UNIFIED,
            DebugFileLayout.SYMSTORE,
            DebugFileLayout.DEBUGINFOD);
    assertThat(d.of("http")).containsExactly(DebugFileLayout.NATIVE, DebugFileLayout.DEBUGINFOD);
    assertThat(d.of("other")).isEmpty();
  }

  @Test
  void aKindGivenReplacesItsDefaultOthersKeepTheirs() {
    DebugFileLayouts l = DebugFileLayouts.parse(" S3 : debuginfod , native,native ; http:");
    assertThat(l.of("s3")).containsExactly(DebugFileLayout.DEBUGINFOD, DebugFileLayout.NATIVE);
    assertThat(l.of("http")).as("nothing after the colon: .sym files only").isEmpty();
    assertThat(l.of("dir"))
        .containsExactly(
            DebugFileLayout.NATIVE,
            DebugFileLayout.UNIFIED,
            DebugFileLayout.SYMSTORE,
            DebugFileLayout.DEBUGINFOD);
    assertThat(DebugFileLayouts.parse(l.toString()).toString()).isEqualTo(l.toString());
  }

  @Test
  void mistakesAreRefusedWithTheReason() {
    assertThatThrownBy(() -> DebugFileLayouts.parse("s3:native,breakpad"))
        .hasMessageContaining("unknown debug-file layout 'breakpad'");
    assertThatThrownBy(() -> DebugFileLayouts.parse("native,unified"))
        .hasMessageContaining("kind:layout");
  }
}
