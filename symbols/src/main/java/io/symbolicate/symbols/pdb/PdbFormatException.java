package io.symbolicate.symbols.pdb;

/**
 * A PDB (MSF 7.0) file that is malformed, truncated, lies about a size or a page, or is not a
 * PDB. Unchecked, as {@code ObjectFormatException} is for the object containers; the message
 * says what is wrong and where.
 */
public final class PdbFormatException extends RuntimeException {
  public PdbFormatException(String message) {
    super(message);
  }
}
