package io.symbolicate.symbols.dotnet;

/**
 * One sequence point of a method (Portable PDB spec, "Sequence Points Blob"): IL offset, source
 * span and document row. A hidden point (line 0xFEEFEE) marks IL that belongs to no line.
 */
public record SequencePoint(
    int ilOffset, int startLine, int startColumn, int endLine, int endColumn, int document) {
  public static final int HIDDEN_LINE = 0xfeefee;

  static SequencePoint hidden(int ilOffset, int document) {
    return new SequencePoint(ilOffset, HIDDEN_LINE, 0, HIDDEN_LINE, 0, document);
  }

  public boolean isHidden() {
    return startLine == HIDDEN_LINE && endLine == HIDDEN_LINE && startColumn == 0 && endColumn == 0;
  }
}
