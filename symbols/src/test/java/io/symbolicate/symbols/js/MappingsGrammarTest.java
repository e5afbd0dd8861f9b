package io.symbolicate.symbols.js;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two rules of ECMA-426's mappings grammar the tc39 suite checks (validMappingLargeVLQ,
 * invalidMappingSegmentWithZeroFields): a VLQ is bounded by its value, not by its number of
 * digits, and a segment has at least one field, so ',' only ever stands between two segments.
 */
class MappingsGrammarTest {

  static SourceMap parse(String mappings) throws Exception {
    String json =
        "{\"version\":3,\"names\":[\"n\"],\"sources\":[\"a.js\"],\"mappings\":\""
            + mappings
            + "\"}";
    return new SourceMapParser().parse(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void longVlqOfZeroContinuationDigitsIsItsValue() throws Exception {
    // 'i' is 1 with the continuation bit; each 'g' adds zero bits; 'A' ends the value
    Mappings m = parse("i" + "g".repeat(1000) + "A").mappings();
    assertThat(m.size()).isEqualTo(1);
    assertThat(m.genLine(0)).isZero();
    assertThat(m.genCol(0)).isEqualTo(1);
    assertThat(m.source(0)).isEqualTo(-1);
  }

  @Test
  void largestValuesStayValidWithTrailingZeroDigits() throws Exception {
    // 2^31 - 1 in seven digits ("+/////D"), then spelled again with zero continuation digits
    // ('j' is 'D' with the continuation bit), in every field of a 5-field segment
    String max = "+/////D";
    String maxLong = "+/////j" + "g".repeat(40) + "A";
    Mappings m = parse(max + "A" + maxLong + max + "A").mappings();
    assertThat(m.genCol(0)).isEqualTo(Integer.MAX_VALUE);
    assertThat(m.origLine(0)).isEqualTo(Integer.MAX_VALUE);
    assertThat(m.origCol(0)).isEqualTo(Integer.MAX_VALUE);
    assertThat(m.name(0)).isZero();
    Mappings same = parse(maxLong + "A" + max + maxLong + "A").mappings();
    assertThat(same.genCol(0)).isEqualTo(Integer.MAX_VALUE);
    assertThat(same.origLine(0)).isEqualTo(Integer.MAX_VALUE);
    assertThat(same.origCol(0)).isEqualTo(Integer.MAX_VALUE);
  }

  @Test
  void bitsBeyondThirtyTwoStillFail() {
    // a non-zero digit after many zero ones: the value itself is too large
    assertThatThrownBy(() -> parse("i" + "g".repeat(100) + "B"))
        .isInstanceOf(SourceMapException.class)
        .hasMessageStartingWith("invalid")
        .hasMessageContaining("VLQ value exceeds 32 bits at offset 101");
  }

  @ParameterizedTest
  @ValueSource(strings = {",,,,", "AAAA,,AAAA", ",AAAA", "AAAA,", "AAAA,;AAAA", "AAAA;,AAAA", ","})
  void segmentWithZeroFieldsIsRefused(String mappings) {
    assertThatThrownBy(() -> parse(mappings))
        .isInstanceOf(SourceMapException.class)
        .hasMessageStartingWith("invalid")
        .hasMessageContaining("empty segment (no fields)");
  }

  @Test
  void emptySegmentMessageSaysWhere() {
    assertThatThrownBy(() -> parse("AAAA;AAAA,,AAAA"))
        .hasMessageContaining("empty segment (no fields) at generated line 1, offset 9");
  }

  @Test
  void emptyLinesRemainValid() throws Exception {
    Mappings m = parse(";;AAAA,CAAC;;").mappings();
    assertThat(m.size()).isEqualTo(2);
    assertThat(m.genLine(0)).isEqualTo(2);
    assertThat(m.genCol(1)).isEqualTo(1);
    assertThat(parse("").segmentCount()).isZero();
  }
}
