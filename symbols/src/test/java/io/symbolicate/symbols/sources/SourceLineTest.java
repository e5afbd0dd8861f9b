package io.symbolicate.symbols.sources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

/** A chunk's line answers as the String it was made from, and cannot be rewritten. */
class SourceLineTest {
  @Test
  void answersAsItsString() {
    for (String s : new String[] {"", "  int x = 1;", "größe \ud83d\udca5 done"}) {
      SourceLine l = SourceLine.of(s);
      assertThat(l.toString()).isEqualTo(s);
      assertThat(l.length()).isEqualTo(s.length());
      assertThat(l.getByteLength()).isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
      for (int i = 0; i < s.length(); i++) {
        assertThat(l.charAt(i)).isEqualTo(s.charAt(i));
      }
      assertThat(l.subSequence(0, s.length()).toString()).isEqualTo(s);
      assertThat((Object) l).isEqualTo(new Utf8(s));
    }
    assertThatThrownBy(() -> SourceLine.of("abc").charAt(3))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void isFrozen() {
    SourceLine l = SourceLine.of("shared");
    assertThatThrownBy(() -> l.set("other")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> l.set(new Utf8("x")))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> l.setByteLength(2)).isInstanceOf(UnsupportedOperationException.class);
    assertThat(l.toString()).isEqualTo("shared");
  }
}
