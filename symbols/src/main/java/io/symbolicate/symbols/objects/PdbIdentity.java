package io.symbolicate.symbols.objects;

import io.symbolicate.symbols.pdb.PdbFile;
import io.symbolicate.symbols.pdb.PdbFormatException;
import io.symbolicate.symbols.pdb.PdbPublic;
import io.symbolicate.symbols.pdb.PdbSymbols;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * The {@link ObjectIdentity} of a PDB as Breakpad and Symbolicator name it: the debug id is the
 * GUID of the info stream and the DBI stream's age; a PDB has no code id and loads at 0.
 */
public final class PdbIdentity {
  private PdbIdentity() {}

  public static ObjectIdentity of(PdbFile pdb) {
    Set<ObjectFeature> features = EnumSet.noneOf(ObjectFeature.class);
    if (pdb.symbolRecordStreamPresent()) {
      features.add(ObjectFeature.SYMTAB);
    }
    if (!pdb.modules().isEmpty()) {
      features.add(ObjectFeature.DEBUG);
    }
    if (pdb.hasFrameData()) {
      features.add(ObjectFeature.UNWIND);
    }
    return new ObjectIdentity(
        "pdb",
        null,
        ObjectIdentity.breakpadDebugId(pdb.guid(), pdb.age()),
        pdb.arch(),
        ObjectKind.DEBUG,
        0,
        features);
  }

  /** The code publics ({@code S_PUB32} flagged code or function, as symbolic takes them), by RVA, first one per RVA. */
  static List<ObjectSymbol> publicSymbols(PdbFile pdb) {
    TreeMap<Long, ObjectSymbol> byRva = new TreeMap<>();
    List<PdbPublic> publics;
    try {
      publics = PdbSymbols.publics(pdb);
    } catch (PdbFormatException e) {
      throw new ObjectFormatException(e.getMessage(), e);
    }
    for (PdbPublic p : publics) {
      if (p.code() || p.function()) {
        byRva.putIfAbsent(p.rva(), new ObjectSymbol(p.name(), p.rva(), 0));
      }
    }
    return new ArrayList<>(byRva.values());
  }
}
