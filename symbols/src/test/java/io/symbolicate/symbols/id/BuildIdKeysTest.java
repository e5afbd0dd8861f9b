package io.symbolicate.symbols.id;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Modules named by build id: the debug id Breakpad derives, and keys that must stay keys. */
class BuildIdKeysTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    // the INFO CODE_ID and MODULE lines of the peers' .sym files of the same ELF file
    "mozilla basic, b060ad20c6b47781552708aa192e7739fac7c84a, 20AD60B0B4C68177552708AA192E77390",
    "symbolic crash, F1C3BCC0279865FE3058404B2831D9E64135386C, C0BCC3F19827FE653058404B2831D9E60",
    // shorter than 16 bytes: zero-padded, as Breakpad's FileID does
    "8-byte id, 0102030405060708, 04030201060508070000000000000000" + "0",
  })
  void theDebugIdIsBreakpadsOfTheBuildId(String what, String codeId, String debugId) {
    assertThat(BuildIdKeys.debugId(codeId)).as(what).isEqualTo(debugId);
  }

  @Test
  void keysRoundTripNormalised() {
    String key = BuildIdKeys.key("B060AD20-C6B4-7781-5527-08AA192E7739FAC7C84A", "libfoo.so");
    assertThat(key).isEqualTo("buildid/b060ad20c6b47781552708aa192e7739fac7c84a/libfoo.so");
    BuildIdKeys.BuildId id = BuildIdKeys.parse(key);
    assertThat(id.codeId()).isEqualTo("b060ad20c6b47781552708aa192e7739fac7c84a");
    assertThat(id.fileName()).isEqualTo("libfoo.so");
    assertThat(id.debugId()).isEqualTo("20AD60B0B4C68177552708AA192E77390");
    assertThat(BuildIdKeys.parse("buildid/0a0b").fileName()).isNull();
    assertThat(BuildIdKeys.key("0a0b", null)).isEqualTo("buildid/0a0b");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "buildid/",
        "buildid/abc", // half a byte
        "buildid/zz",
        "buildid/0a0b/..",
        "buildid/0a0b/a/b",
        "buildid/0a0b/a%2f",
        "buildid/../0a0b",
        "libfoo.so/0A0B",
        "buildid/"
            + "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff0011223344556677"
            + "88",
      })
  void hostileKeysAreRefused(String key) {
    assertThatThrownBy(() -> BuildIdKeys.parse(key))
        .isInstanceOf(DebugIdentifiers.InvalidIdentifierException.class);
  }
}
