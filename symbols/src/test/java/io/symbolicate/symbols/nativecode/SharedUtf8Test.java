package io.symbolicate.symbols.nativecode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.schema.AvroSetup;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.avro.SystemLimitException;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

class SharedUtf8Test {

  private static SharedUtf8 of(byte[] b) {
    // with bytes around it, as in a page body
    byte[] body = new byte[b.length + 6];
    System.arraycopy(b, 0, body, 3, b.length);
    return SharedUtf8.of(body, 3, b.length);
  }

  @Test
  void validUtf8IsKeptByteForByte() {
    for (String s :
        new String[] {
          "", "main", "ns::f<int>(char const*)", "Grüße::ünïcode()", "emoji_\uD83D\uDE00()"
        }) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      SharedUtf8 u = of(b);
      assertThat(Arrays.copyOf(u.getBytes(), u.getByteLength())).as(s).isEqualTo(b);
      assertThat(u.toString()).isEqualTo(s);
      assertThat((Object) u).isEqualTo(new Utf8(s));
    }
  }

  @Test
  void malformedUtf8BecomesWhatAStringWouldHold() {
    // a Latin-1 'ü', a truncated two-byte sequence, an overlong '/', a lone continuation byte
    byte[][] bad = {
      {'f', (byte) 0xFC, 'n'}, {'a', (byte) 0xC3}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0x80, 'x'}
    };
    for (byte[] b : bad) {
      String asString = new String(b, StandardCharsets.UTF_8);
      SharedUtf8 u = of(b);
      assertThat(u.toString()).isEqualTo(asString).contains("\uFFFD");
      // what the output carries is valid UTF-8: it decodes and encodes back to the same bytes
      byte[] out = Arrays.copyOf(u.getBytes(), u.getByteLength());
      assertThat(new String(out, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8))
          .isEqualTo(out);
    }
  }

  @Test
  void aSharedNameCannotBeRewrittenInPlace() throws Exception {
    SharedUtf8 u = SharedUtf8.of("cached::name()");
    assertThatThrownBy(() -> u.setByteLength(3)).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> u.set("x")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> u.set(new Utf8("x")))
        .isInstanceOf(UnsupportedOperationException.class);
    // Avro decoding into a record that holds it would reuse it: that fails instead
    BinaryDecoder in = DecoderFactory.get().binaryDecoder(new byte[] {2, 'x'}, null);
    assertThatThrownBy(() -> in.readString(u)).isInstanceOf(UnsupportedOperationException.class);
    assertThat(u.toString()).isEqualTo("cached::name()");
  }

  @Test
  void charactersAreTheStringsWithoutBuildingItPerCall() {
    for (String s :
        new String[] {"ns::f<int>(char const*)", "Grüße::ünï()", "e_\uD83D\uDE00()", ""}) {
      SharedUtf8 u = SharedUtf8.of(s);
      assertThat(u.length()).as(s).isEqualTo(s.length());
      for (int i = 0; i < s.length(); i++) {
        assertThat(u.charAt(i)).isEqualTo(s.charAt(i));
      }
      assertThat(u.subSequence(0, s.length() / 2).toString())
          .isEqualTo(s.substring(0, s.length() / 2));
      assertThat(Utf8.compareSequences(u, s)).isZero();
      assertThat(Utf8.compareSequences(u, s + "x")).isNegative();
      assertThatThrownBy(() -> u.charAt(s.length())).isInstanceOf(IndexOutOfBoundsException.class);
    }
  }

  @Test
  void avrosDecodingLimitsAreTheProjectsOnceAPageNameExists() {
    SharedUtf8.of("x");
    long cap = Long.parseLong(AvroSetup.DEFAULT_STRING_LIMIT);
    // read once by Avro when its first Utf8 is built: a page's names may come before any serde
    assertThatThrownBy(() -> SystemLimitException.checkMaxStringLength(cap + 1))
        .isInstanceOf(SystemLimitException.class);
  }

  @Test
  void toStringKeepsNothingCachedStringKeepsOne() {
    SharedUtf8 u = SharedUtf8.of("a::b()");
    assertThat(u.toString()).isEqualTo("a::b()").isNotSameAs(u.toString());
    assertThat(u.cachedString()).isEqualTo("a::b()").isSameAs(u.cachedString());
  }
}
