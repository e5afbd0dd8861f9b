package io.symbolicate.symbols.dotnet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

/**
 * Hostile Portable PDBs and embedded PDBs: each is refused with a {@link PortablePdbException}
 * that says why, allocates nothing from a claimed count and ends (no loop over a claimed size).
 */
class PortablePdbHostileTest {
  static byte[] portablePdb() throws IOException {
    return PortablePdbTest.read("testutils/windows/portable.pdb");
  }

  static void putInt(byte[] b, int at, int v) {
    b[at] = (byte) v;
    b[at + 1] = (byte) (v >>> 8);
    b[at + 2] = (byte) (v >>> 16);
    b[at + 3] = (byte) (v >>> 24);
  }

  /** Offset of the first row count of the #~ stream (the Document table's, in a PDB). */
  static int firstRowCount(byte[] pdb) {
    return MetadataRoot.parse(pdb, 0, pdb.length).stream("#~").offset() + 24;
  }

  @Test
  void rowCountsBeyondTheStreamAreRefused() throws IOException {
    byte[] b = portablePdb();
    putInt(b, firstRowCount(b), 0x00ffffff);
    assertThatThrownBy(() -> PortablePdb.parse(b))
        .isInstanceOf(PortablePdbException.class)
        .hasMessageContaining("table 0x30 of 16777215 rows needs");
    putInt(b, firstRowCount(b), 0x7fffffff);
    assertThatThrownBy(() -> PortablePdb.parse(b))
        .isInstanceOf(PortablePdbException.class)
        .hasMessageContaining("more than a token holds");
  }

  @Test
  void referencedRowCountsBeyondATokenAreRefused() throws IOException {
    byte[] b = portablePdb();
    MetadataRoot.Stream pdb = MetadataRoot.parse(b, 0, b.length).stream("#Pdb");
    // the first referenced type-system row count follows id (20), entry point (4), mask (8)
    putInt(b, pdb.offset() + 32, -1);
    assertThatThrownBy(() -> PortablePdb.parse(b))
        .isInstanceOf(PortablePdbException.class)
        .hasMessageContaining("#Pdb stream claims 4294967295 rows");
  }

  @Test
  void heapIndexesOutOfRangeAreRefused() throws IOException {
    byte[] b = portablePdb();
    PortablePdb pdb = PortablePdb.parse(b);
    int row = pdb.tables().rowOffset(TableSchema.DOCUMENT, 1);
    // Document.Name is a blob index (2 bytes in this small PDB): point it past the heap
    b[row] = (byte) 0xff;
    b[row + 1] = (byte) 0xff;
    PortablePdb bad = PortablePdb.parse(b);
    assertThatThrownBy(() -> bad.document(1))
        .isInstanceOf(PortablePdbException.class)
        .hasMessageContaining("past the #Blob heap");
    assertThatThrownBy(() -> PpdbLineTable.build(bad)).isInstanceOf(PortablePdbException.class);
    // Document.Language is a GUID index: past the #GUID heap
    byte[] c = portablePdb();
    int lang = row + 2 + 2 + 2; // Name blob, HashAlgorithm guid, Hash blob
    c[lang] = (byte) 0xff;
    c[lang + 1] = 0x7f;
    assertThatThrownBy(() -> PortablePdb.parse(c).document(1))
        .isInstanceOf(PortablePdbException.class)
        .hasMessageContaining("past the #GUID heap");
  }

  @Test
  void streamHeadersThatLieAreRefused() throws IOException {
    byte[] b = portablePdb();
    int versionLength = LittleEndian.i32(b, 12);
    int streamsAt = 16 + versionLength + 2;
    byte[] many = b.clone();
    many[streamsAt] = (byte) 0xff;
    many[streamsAt + 1] = (byte) 0xff;
    assertThatThrownBy(() -> PortablePdb.parse(many)).hasMessageContaining("65535 streams");
    byte[] far = b.clone();
    putInt(far, streamsAt + 2 + 4, 0x7fffffff); // size of the first stream
    assertThatThrownBy(() -> PortablePdb.parse(far)).hasMessageContaining("runs past");
    byte[] version = b.clone();
    putInt(version, 12, 0x10000);
    assertThatThrownBy(() -> PortablePdb.parse(version))
        .hasMessageContaining("version string of 65536 bytes");
    assertThatThrownBy(() -> PortablePdb.parse(new byte[] {'B', 'S', 'J', 'B'}))
        .isInstanceOf(PortablePdbException.class);
  }

  @Test
  void sequencePointOverflowIsRefused() {
    // local signature 0, document given; IL 0x1FFFFFFF line 1 col 1-3, then IL + 0x1FFFFFFF
    byte[] blob = {
      0,
      (byte) 0xdf,
      (byte) 0xff,
      (byte) 0xff,
      (byte) 0xff,
      1,
      4,
      1,
      1,
      (byte) 0xdf,
      (byte) 0xff,
      (byte) 0xff,
      (byte) 0xff,
      1,
      4,
      2,
      2
    };
    assertThatThrownBy(() -> SequencePointDecoder.decode(blob, 0, blob.length, 1))
        .isInstanceOf(PortablePdbException.class)
        .hasMessageContaining("IL offset 1073741822");
    // a start line driven below zero by a signed delta
    byte[] negative = {0, 0, 1, 2, 10, 1, 2, 1, 2, 0x59, 0};
    assertThatThrownBy(() -> SequencePointDecoder.decode(negative, 0, negative.length, 1))
        .hasMessageContaining("invalid sequence point: start line -10");
    // a visible point on the hidden line, a truncated value, a bad lead byte
    byte[] hiddenLine = {0, 0, 1, 2, (byte) 0xc0, (byte) 0xfe, (byte) 0xef, (byte) 0xee, 1};
    assertThatThrownBy(() -> SequencePointDecoder.decode(hiddenLine, 0, hiddenLine.length, 1))
        .hasMessageContaining("hidden line");
    byte[] truncated = {0, 0, 1, (byte) 0xc0, 1};
    assertThatThrownBy(() -> SequencePointDecoder.decode(truncated, 0, truncated.length, 1))
        .hasMessageContaining("truncated");
    byte[] lead = {0, 0, (byte) 0xe0};
    assertThatThrownBy(() -> SequencePointDecoder.decode(lead, 0, lead.length, 1))
        .hasMessageContaining("lead byte 0xe0");
  }

  @Test
  void hiddenPointsDecodeAsSymbolicDecodesThem() {
    // IL 0 line 5 col 1-9; IL 4 hidden; IL 6 line 6 (delta +1 from line 5) col 1-5
    byte[] blob = {0, 0, 0, 8, 5, 1, 4, 0, 0, 2, 0, 4, 2, 0};
    List<SequencePoint> points = SequencePointDecoder.decode(blob, 0, blob.length, 3);
    assertThat(points)
        .containsExactly(
            new SequencePoint(0, 5, 1, 5, 9, 3),
            SequencePoint.hidden(4, 3),
            new SequencePoint(6, 6, 1, 6, 5, 3));
  }

  @Test
  void anEmbeddedPdbClaimingFourGigabytesIsRefused() throws IOException {
    byte[] dll =
        PortablePdbTest.read("testutils/windows/Sentry.Samples.Console.Basic-embedded-ppdb.dll");
    int mpdb = indexOf(dll, new byte[] {'M', 'P', 'D', 'B'});
    assertThat(mpdb).isPositive();
    putInt(dll, mpdb + 4, -1);
    assertThatThrownBy(() -> DotnetImage.parse(dll).embeddedPortablePdb())
        .isInstanceOf(PortablePdbException.class)
        .hasMessageContaining("claims 4294967295 bytes inflated");
    // and one that inflates to more than it states
    byte[] bomb = deflate(new byte[1 << 20]);
    assertThatThrownBy(() -> Inflate.exactly(bomb, 0, bomb.length, 1000, 1 << 30, "bomb"))
        .hasMessageContaining("inflates past its stated 1000 bytes");
    assertThatThrownBy(() -> Inflate.exactly(bomb, 0, 10, 1 << 20, 1 << 30, "cut"))
        .hasMessageContaining("truncated");
  }

  @Test
  void mutatedPdbsFailOnlyWithReasons() throws IOException {
    byte[] good = portablePdb();
    SplittableRandom random = new SplittableRandom(46);
    for (int i = 0; i < 3000; i++) {
      byte[] b = good.clone();
      int flips = 1 + random.nextInt(4);
      for (int f = 0; f < flips; f++) {
        b[random.nextInt(b.length)] = (byte) random.nextInt(256);
      }
      exercise(b);
    }
    for (int cut = 0; cut < good.length; cut += 7) {
      exercise(Arrays.copyOf(good, cut));
    }
  }

  /** Everything a reader does; only a PortablePdbException may come out. */
  static void exercise(byte[] b) {
    try {
      PortablePdb pdb = PortablePdb.parse(b);
      pdb.debugId();
      PpdbLineTable table = PpdbLineTable.build(pdb);
      table.lookup(1, 0);
      pdb.embeddedSources();
      pdb.sourceLinks();
    } catch (PortablePdbException expected) {
      assertThat(expected.getMessage()).isNotBlank();
    }
  }

  static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  static byte[] deflate(byte[] data) {
    Deflater d = new Deflater(Deflater.BEST_COMPRESSION, true);
    d.setInput(data);
    d.finish();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[4096];
    while (!d.finished()) {
      out.write(buf, 0, d.deflate(buf));
    }
    d.end();
    return out.toByteArray();
  }
}
