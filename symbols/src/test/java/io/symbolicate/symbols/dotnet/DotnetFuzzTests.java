package io.symbolicate.symbols.dotnet;

import static io.symbolicate.symbols.testing.Fuzzing.check;
import static io.symbolicate.symbols.testing.Fuzzing.expect;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.symbolicate.symbols.table.PageSource;
import io.symbolicate.symbols.testing.Fuzzing;
import java.util.List;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz targets of the .NET reader (docs/fuzzing.md). In every build they replay their corpora
 * under {@code src/test/resources/.../DotnetFuzzTestsInputs/<method>/} (seeds written by {@link
 * DotnetFuzzSeeds}); {@code scripts/fuzz.sh portable-pdb} runs one coverage-guided.
 */
class DotnetFuzzTests {
  /**
   * Bytes as a Portable PDB, or as a PE that embeds one: documents, every method's points in a
   * line table, lookups, embedded sources, Source Link; or {@link PortablePdbException}. A
   * lookup answers a document of the PDB and a line below 2^29.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void portablePdb(byte[] data) throws Exception {
    expect(
        data,
        () -> {
          byte[] pdbBytes = data;
          if (DotnetImage.looksLikePe(data)) {
            DotnetImage image = DotnetImage.parse(data);
            image.portablePdbReference();
            image.methodNames().name(1);
            pdbBytes = image.embeddedPortablePdb().orElse(null);
            if (pdbBytes == null) {
              return;
            }
          }
          PortablePdb pdb = PortablePdb.parse(pdbBytes);
          pdb.debugId();
          List<Document> docs = pdb.documents();
          PpdbLineTable table = PpdbLineTable.build(pdb);
          for (int m = 1; m <= Math.min(pdb.methodCount(), 64); m++) {
            for (long il : new long[] {0, 1, 10, 0x1fffffff}) {
              table
                  .lookup(m, il)
                  .ifPresent(
                      info -> {
                        check(
                            docs.contains(info.document()), "lookup names no document of the PDB");
                        check(info.line() >= 0 && info.line() < 0x20000000, "line out of range");
                      });
            }
          }
          // the paged table (small pages, many boundaries) answers as the line table
          PageSource<DotnetPage> pages = DotnetTable.build(pdb, 7).inMemory();
          long[] keys = table.keys();
          for (int i = 0; i < Math.min(keys.length, 256); i++) {
            int m = (int) (keys[i] >>> 32);
            long il = (keys[i] & 0xffffffffL) + 1;
            check(
                DotnetTable.lookup(pages, m, il)
                    .map(DotnetPage.Line::line)
                    .equals(table.lookup(m, il).map(PpdbLineTable.LineInfo::line)),
                "paged table and line table differ");
          }
          for (EmbeddedSource s : pdb.embeddedSources()) {
            check(s.length() <= PortablePdb.MAX_SOURCE_BYTES, "embedded source over the limit");
          }
          pdb.sourceLinks().resolve(docs.isEmpty() ? "x" : docs.get(0).name());
        },
        PortablePdbException.class);
  }

  /**
   * Bytes as a stored .NET table header and as a stored page: decoded, or {@link
   * PortablePdbException}; a decoded page answers lookups at its keys.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void tableBytes(byte[] data) throws Exception {
    expect(data, () -> DotnetTable.Header.decode(data), PortablePdbException.class);
    expect(
        data,
        () -> {
          DotnetPage page = DotnetPage.decode(data);
          for (int m = 1; m < 8; m++) {
            page.lookup(m, 0);
            page.lookup(m, 100);
          }
        },
        PortablePdbException.class);
  }

  /**
   * A sequence-point blob (first byte: 0 when the blob names its first document, else the
   * method's document is 1): points or {@link PortablePdbException}. No more points than pairs
   * of bytes; visible points have spans that end after they start, below the hidden line.
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void sequencePoints(byte[] data) throws Exception {
    if (data.length == 0) {
      return;
    }
    expect(
        data,
        () -> {
          int document = data[0] == 0 ? 0 : 1;
          List<SequencePoint> points =
              SequencePointDecoder.decode(data, 1, data.length - 1, document);
          check(points.size() <= data.length / 2, "more points than byte pairs");
          for (SequencePoint p : points) {
            check(p.ilOffset() >= 0 && p.ilOffset() < 0x20000000, "IL offset out of range");
            if (!p.isHidden()) {
              check(p.startLine() != SequencePoint.HIDDEN_LINE, "visible point on hidden line");
              check(
                  p.endLine() > p.startLine()
                      || (p.endLine() == p.startLine() && p.endColumn() > p.startColumn()),
                  "span ends before it starts");
            }
          }
        },
        PortablePdbException.class);
  }
}
