package io.symbolicate.symbols.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.symbols.objects.ObjectFiles;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CabFileTest {
  private static final Path WINDOWS =
      SharedFixtures.fixtures("difs").resolve("mozilla-dump_syms/windows");

  /**
   * Mozilla's {@code basic32.pd_} ({@code makecab}, MSZIP) expands to the PDB whose identity is
   * the one on the MODULE line of the {@code .sym} Breakpad's {@code dump_syms.exe} wrote.
   */
  @Test
  void mozillasCompressedPdbExpandsToThePdbOfItsSym(@TempDir Path dir) throws Exception {
    CabFile cab =
        CabFile.parse(ByteBuffer.wrap(Files.readAllBytes(WINDOWS.resolve("basic32.pd_"))));
    assertThat(cab.folders())
        .singleElement()
        .extracting(CabFile.Folder::compression)
        .isEqualTo(CabFile.Compression.MSZIP);
    CabFile.Entry e = cab.files().get(0);
    assertThat(e.name()).isEqualTo("basic32.pdb");
    Path pdb = dir.resolve("basic32.pdb");
    try (OutputStream out = Files.newOutputStream(pdb)) {
      assertThat(cab.extract(e, out, 1L << 30)).isEqualTo(e.size());
    }
    String module = Files.readAllLines(WINDOWS.resolve("basic32.sym")).get(0);
    assertThat(module).startsWith("MODULE windows x86 ");
    String debugId = module.split(" ")[3];
    assertThat(ObjectFiles.open(pdb, null).identity().debugId()).isEqualTo(debugId);
  }

  @Test
  void storedAndMszipCabinetsOfManyBlocksRoundTrip() throws Exception {
    byte[] content = new byte[100_000];
    Random r = new Random(45);
    for (int i = 0; i < content.length; i++) {
      content[i] = (byte) (i % 251 == 0 ? r.nextInt() : content[Math.max(0, i - 40_000)] + i);
    }
    for (int type : new int[] {0, 1}) {
      byte[] cab = CabBytes.cab("a.pdb", content, type);
      CabFile f = CabFile.parse(ByteBuffer.wrap(cab));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      f.extract(f.files().get(0), out, content.length);
      assertThat(out.toByteArray()).as("type %d", type).isEqualTo(content);
    }
  }

  @Test
  void quantumIsRefusedByName() {
    byte[] cab = CabBytes.cab("a.pdb", new byte[10], 0);
    ByteBuffer.wrap(cab).order(ByteOrder.LITTLE_ENDIAN).putShort(36 + 6, (short) 0x0f02);
    CabFile f = CabFile.parse(ByteBuffer.wrap(cab));
    assertThatThrownBy(() -> f.extract(f.files().get(0), OutputStream.nullOutputStream(), 100))
        .isInstanceOf(CabFormatException.class)
        .hasMessageContaining("Quantum");
  }

  /** A file claiming 4 GiB is refused before a block is read; nothing sized from the claim. */
  @Test
  void aFileClaimingGigabytesIsRefusedBeforeReading() {
    byte[] cab = CabBytes.cab("a.pdb", new byte[10], 1);
    ByteBuffer.wrap(cab).order(ByteOrder.LITTLE_ENDIAN).putInt(44, -1);
    CabFile f = CabFile.parse(ByteBuffer.wrap(cab));
    assertThatThrownBy(() -> f.extract(f.files().get(0), OutputStream.nullOutputStream(), 1 << 30))
        .isInstanceOf(CabFormatException.class)
        .hasMessageContaining("over the limit");
  }

  /** A folder claiming 65535 blocks of which the file has one: refused at the end of the file. */
  @Test
  void blockCountsPastTheEndAreRefused() {
    byte[] cab = CabBytes.cab("a.pdb", new byte[10], 1);
    ByteBuffer b = ByteBuffer.wrap(cab).order(ByteOrder.LITTLE_ENDIAN);
    b.putShort(36 + 4, (short) 0xffff);
    b.putInt(44, 1 << 30); // and the file claims 1 GiB of them
    CabFile f = CabFile.parse(ByteBuffer.wrap(cab));
    assertThatThrownBy(() -> f.extract(f.files().get(0), OutputStream.nullOutputStream(), 1L << 31))
        .isInstanceOf(CabFormatException.class)
        .hasMessageContaining("runs past the end");
  }

  @Test
  void headerCountsAndOffsetsPastTheEndAreRefused() {
    byte[] cab = CabBytes.cab("a.pdb", new byte[10], 1);
    byte[] files = cab.clone();
    ByteBuffer.wrap(files).order(ByteOrder.LITTLE_ENDIAN).putShort(28, (short) 0xffff);
    assertThatThrownBy(() -> CabFile.parse(ByteBuffer.wrap(files)))
        .isInstanceOf(CabFormatException.class)
        .hasMessageContaining("runs past the end");
    byte[] folders = cab.clone();
    ByteBuffer.wrap(folders).order(ByteOrder.LITTLE_ENDIAN).putShort(26, (short) 0xffff);
    assertThatThrownBy(() -> CabFile.parse(ByteBuffer.wrap(folders)))
        .isInstanceOf(CabFormatException.class)
        .hasMessageContaining("past the end");
    byte[] size = cab.clone();
    ByteBuffer.wrap(size).order(ByteOrder.LITTLE_ENDIAN).putInt(8, Integer.MAX_VALUE);
    assertThatThrownBy(() -> CabFile.parse(ByteBuffer.wrap(size)))
        .isInstanceOf(CabFormatException.class)
        .hasMessageContaining("claims");
    byte[] folder = cab.clone();
    ByteBuffer.wrap(folder).order(ByteOrder.LITTLE_ENDIAN).putShort(44 + 8, (short) 7);
    assertThatThrownBy(() -> CabFile.parse(ByteBuffer.wrap(folder)))
        .isInstanceOf(CabFormatException.class)
        .hasMessageContaining("folder 7");
  }

  @Test
  void aBlockThatInflatesToMoreOrLessThanItClaimsIsRefused() {
    byte[] content = new byte[1000];
    byte[] cab = CabBytes.cab("a.pdb", content, 1);
    ByteBuffer b = ByteBuffer.wrap(cab).order(ByteOrder.LITTLE_ENDIAN);
    int block = b.getInt(36);
    b.putShort(block + 6, (short) 999);
    CabFile f = CabFile.parse(ByteBuffer.wrap(cab));
    assertThatThrownBy(() -> f.extract(f.files().get(0), OutputStream.nullOutputStream(), 5000))
        .isInstanceOf(CabFormatException.class)
        .hasMessageContaining("MSZIP block 0");
    b.putShort(block + 6, (short) 1000);
    b.put(block + 8, (byte) 'X');
    assertThatThrownBy(() -> f.extract(f.files().get(0), OutputStream.nullOutputStream(), 5000))
        .isInstanceOf(CabFormatException.class)
        .hasMessageContaining("CK signature");
  }

  @Test
  void multiCabinetSetsAreRefused() {
    byte[] cab = CabBytes.cab("a.pdb", new byte[10], 0);
    ByteBuffer.wrap(cab).order(ByteOrder.LITTLE_ENDIAN).putShort(30, (short) 2);
    assertThatThrownBy(() -> CabFile.parse(ByteBuffer.wrap(cab)))
        .isInstanceOf(CabFormatException.class)
        .hasMessageContaining("multi-cabinet");
  }
}
