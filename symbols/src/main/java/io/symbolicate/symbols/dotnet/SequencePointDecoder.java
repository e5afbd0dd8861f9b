package io.symbolicate.symbols.dotnet;

import java.util.ArrayList;
import java.util.List;

/**
 * Decodes a method's sequence-point blob. Values are checked as symbolic-ppdb checks them (IL
 * offsets and lines below 2^29, columns below 2^16, a span that does not end before it starts, no
 * visible point on line 0xFEEFEE); a point that fails refuses the blob. The list grows only with
 * bytes consumed (each point takes at least two), never from a claimed count.
 */
public final class SequencePointDecoder {
  private SequencePointDecoder() {}

  /**
   * @param document the method's Document column: 0 when the blob names its first document
   */
  public static List<SequencePoint> decode(byte[] data, int offset, int length, int document) {
    return decode(new BlobReader(data, offset, length), document);
  }

  static List<SequencePoint> decode(BlobReader r, int document) {
    List<SequencePoint> points = new ArrayList<>();
    r.unsigned(); // LocalSignature
    int current = document == 0 ? r.unsigned() : document;
    SequencePoint lastVisible = null;
    long il = 0;
    boolean first = true;
    while (r.hasMore()) {
      if (!first && r.peek() == 0) {
        r.u8();
        current = r.unsigned();
        continue;
      }
      il += r.unsigned();
      first = false;
      long deltaLines = r.unsigned();
      long deltaColumns = deltaLines == 0 ? r.unsigned() : r.signed();
      if (deltaLines == 0 && deltaColumns == 0) {
        if (il >= 0x20000000L) {
          throw invalid("IL offset " + il);
        }
        points.add(SequencePoint.hidden((int) il, current));
        continue;
      }
      long startLine;
      long startColumn;
      if (lastVisible == null) {
        startLine = r.unsigned();
        startColumn = r.unsigned();
      } else {
        startLine = lastVisible.startLine() + (long) r.signed();
        startColumn = lastVisible.startColumn() + (long) r.signed();
      }
      long endLine = startLine + deltaLines;
      long endColumn = startColumn + deltaColumns;
      // messages are built only for a point that fails: this loop runs for every point
      if (il >= 0x20000000L) {
        throw invalid("IL offset " + il);
      }
      if (startLine < 0 || startLine >= 0x20000000L) {
        throw invalid("start line " + startLine);
      }
      if (endLine >= 0x20000000L) {
        throw invalid("end line " + endLine);
      }
      if (startColumn < 0 || startColumn >= 0x10000) {
        throw invalid("start column " + startColumn);
      }
      if (endColumn < 0 || endColumn >= 0x10000) {
        throw invalid("end column " + endColumn);
      }
      if (startLine == SequencePoint.HIDDEN_LINE || endLine == SequencePoint.HIDDEN_LINE) {
        throw invalid("visible point on the hidden line 0xFEEFEE");
      }
      if (endLine < startLine || (endLine == startLine && endColumn <= startColumn)) {
        throw invalid("span " + startLine + ":" + startColumn + "-" + endLine + ":" + endColumn);
      }
      SequencePoint p =
          new SequencePoint(
              (int) il,
              (int) startLine,
              (int) startColumn,
              (int) endLine,
              (int) endColumn,
              current);
      points.add(p);
      lastVisible = p;
    }
    return points;
  }

  private static PortablePdbException invalid(String what) {
    return new PortablePdbException("invalid sequence point: " + what);
  }
}
