package io.symbolicate.symbols.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * LZX cabinets against {@code cabextract} (the peer, libmspack's decoder): {@link LzxCabs} makes
 * five cabinets (verbatim, aligned-offset and uncompressed blocks, a 32 KiB window that wraps,
 * E8 translation, an odd-sized uncompressed block); {@code cabextract 1.9} (Debian) extracted each
 * without error on 2026-12-03, and the digests below are of the cabinets it read and of the files
 * it wrote. Regenerate with {@code java -cp target/test-classes:target/classes
 * io.symbolicate.symbols.io.LzxCabs DIR} then {@code cabextract -d OUT DIR/NAME.cab}.
 */
class LzxCabFileTest {
  /** name: {sha256 of the cabinet, sha256 of what cabextract extracted}. */
  private static final Map<String, String[]> PEER =
      Map.of(
          "verbatim-w16",
          new String[] {
            "9466b34707d219f2c10501e70e9921fade48ade695c9f52dfe468fc86ef1d6b1",
            "0925ddbb5ec1bb87a4f2b355f669f8aa0dd7fb59ea8bda3c29cd7d47c91ba429"
          },
          "mixed-w21-e8",
          new String[] {
            "7a75ad3ce3f356b29dd031fc475f2407d3f59b5da35eac98fc5dda23ab9dd29b",
            "d43cf6b700bdfa07d0177df531355fece8146f438bc167bce3263f9899e0de2a"
          },
          "aligned-w15-wraps",
          new String[] {
            "6cd9a672aa8ef33e8c876f863fccba1338a6f960f393c1c779868b492e7b4827",
            "4215ff833ab812d196f90760754196a18f323778ae243674a27f9b02433dd720"
          },
          "uncompressed-odd",
          new String[] {
            "ead32b5005176348b94496988571d046aaddfd64fb23283ea920cd2c9ee73a98",
            "6d6fba16c015c6a9f216e6f2e8f6d1f322729a99546fd50b9358f1d5eb675764"
          },
          "e8-small-file",
          new String[] {
            "9144227bb2b0eade1a190a5ec9234670c59968a93459d6105e76cc5d02a84620",
            "28eaec3e60e4d22322b7b60f8007b4e63b8c4552065b92c622b9d5ed10c95a17"
          });

  @Test
  void lzxCabinetsExtractAsCabextractExtractedThem() throws Exception {
    List<LzxCabs.Case> cases = LzxCabs.all();
    assertThat(cases)
        .extracting(LzxCabs.Case::name)
        .containsExactlyInAnyOrderElementsOf(PEER.keySet());
    for (LzxCabs.Case c : cases) {
      String[] peer = PEER.get(c.name());
      assertThat(sha256(c.cab()))
          .as("%s: the cabinet cabextract read", c.name())
          .isEqualTo(peer[0]);
      CabFile f = CabFile.parse(ByteBuffer.wrap(c.cab()));
      assertThat(f.folders().get(0).compression()).isEqualTo(CabFile.Compression.LZX);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      long n = f.extract(f.files().get(0), out, 1 << 20);
      assertThat(n).isEqualTo(f.files().get(0).size());
      assertThat(sha256(out.toByteArray())).as("%s: extracted", c.name()).isEqualTo(peer[1]);
    }
  }

  /** Without E8 translation the peer's output is the writer's input: a check on the writer. */
  @Test
  void withoutE8TheOutputIsTheInput() throws Exception {
    byte[] content = LzxCabs.text(100_000, 1);
    assertThat(sha256(content)).isEqualTo(PEER.get("verbatim-w16")[1]);
    byte[] code = LzxCabs.code(180_000, 2);
    assertThat(sha256(code))
        .as("E8 operands are translated")
        .isNotEqualTo(PEER.get("mixed-w21-e8")[1]);
  }

  @Test
  void windowsOutsideLzxsRangeAreRefused() {
    byte[] cab = LzxCabs.all().get(0).cab();
    ByteBuffer.wrap(cab).order(ByteOrder.LITTLE_ENDIAN).putShort(36 + 6, (short) 0x1603);
    assertThatThrownBy(() -> CabFile.parse(ByteBuffer.wrap(cab)))
        .isInstanceOf(CabFormatException.class)
        .hasMessageContaining("2^22");
  }

  @Test
  void aBlockTypeThatIsNoneIsRefused() {
    byte[] cab = CabBytes.cab("a.pdb", 100, List.of(new byte[4]), List.of(100), 0x1003);
    assertThatThrownBy(() -> extract(cab))
        .isInstanceOf(CabFormatException.class)
        .hasMessageContaining("block type 0");
  }

  @Test
  void dataThatEndsEarlyIsRefused() {
    byte[] cab = LzxCabs.all().get(0).cab();
    ByteBuffer b = ByteBuffer.wrap(cab).order(ByteOrder.LITTLE_ENDIAN);
    int block = b.getInt(36);
    int cbData = b.getShort(block + 4) & 0xffff;
    b.putShort(block + 4, (short) 40); // the first block's data cut to 40 bytes
    b.putShort(block + 6, (short) 32768);
    b.putShort(36 + 4, (short) 1);
    b.putInt(44, 32768); // and the file is that frame
    assertThat(cbData).isGreaterThan(40);
    assertThatThrownBy(() -> extract(cab))
        .isInstanceOf(CabFormatException.class)
        .hasMessageContaining("LZX");
  }

  @Test
  void blocksClaimingMoreThanAFrameOrLessThanTheFileAreRefused() {
    byte[] cab = LzxCabs.all().get(3).cab(); // one block of 9 bytes
    ByteBuffer b = ByteBuffer.wrap(cab).order(ByteOrder.LITTLE_ENDIAN);
    int block = b.getInt(36);
    b.putShort(block + 6, (short) 40000);
    assertThatThrownBy(() -> extract(cab))
        .isInstanceOf(CabFormatException.class)
        .hasMessageContaining("more than a 32 KiB frame");
    b.putShort(block + 6, (short) 5);
    assertThatThrownBy(() -> extract(cab))
        .isInstanceOf(CabFormatException.class)
        .hasMessageContaining("whose blocks hold 5 bytes");
  }

  /** Mutated cabinets: each extracts or is refused with CabFormatException, never otherwise. */
  @Test
  void mutatedCabinetsAreRefusedWithAReason() throws Exception {
    Random r = new Random(45);
    int refused = 0;
    for (LzxCabs.Case c : LzxCabs.all()) {
      int dataStart = ByteBuffer.wrap(c.cab()).order(ByteOrder.LITTLE_ENDIAN).getInt(36);
      for (int i = 0; i < 60; i++) {
        byte[] cab = c.cab().clone();
        for (int k = 0; k < 1 + r.nextInt(4); k++) {
          int at = dataStart + 8 + r.nextInt(cab.length - dataStart - 8);
          cab[at] ^= (byte) (1 << r.nextInt(8));
        }
        try {
          extract(cab);
        } catch (CabFormatException expected) {
          refused++;
        }
      }
    }
    assertThat(refused).isPositive();
  }

  private static void extract(byte[] cab) throws Exception {
    CabFile f = CabFile.parse(ByteBuffer.wrap(cab));
    f.extract(f.files().get(0), OutputStream.nullOutputStream(), 1 << 20);
  }

  private static String sha256(byte[] b) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
  }
}
