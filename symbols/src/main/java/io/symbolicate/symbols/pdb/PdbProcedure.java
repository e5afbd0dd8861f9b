package io.symbolicate.symbols.pdb;

/**
 * An {@code S_GPROC32}/{@code S_LPROC32} (or {@code _ID}) record: name, RVA, code size, its
 * type (0: none; an {@code _ID} form's is an IPI function id, {@code typeIsId}), and whether it
 * is global (a local one is a static function).
 */
public record PdbProcedure(
    String name, long rva, long size, long type, boolean typeIsId, boolean global) {

  /** A global procedure of no type. */
  public PdbProcedure(String name, long rva, long size) {
    this(name, rva, size, 0, false, true);
  }
}
