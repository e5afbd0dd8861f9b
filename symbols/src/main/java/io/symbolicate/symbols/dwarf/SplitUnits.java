package io.symbolicate.symbols.dwarf;

import io.symbolicate.symbols.objects.ObjectFormatException;
import io.symbolicate.symbols.objects.ObjectSections;
import io.symbolicate.symbols.objects.Section;
import java.util.HexFormat;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Finds the split unit that completes a skeleton unit: in the {@code .dwp} package by the
 * skeleton's DWO id (its {@code .debug_cu_index}), else in the {@code .dwo} file the skeleton
 * names. The split unit must carry the skeleton's id; one that does not is refused with a note,
 * and so is a "split" unit that is itself a skeleton (a {@code .dwo} is never followed further).
 * Whatever is not found leaves the skeleton with what the executable says.
 */
final class SplitUnits {
  private final DwarfContext ctx;
  private final DwarfFile dwp;
  private final DwpIndex cuIndex;
  private final String dwpName;
  private final DwoLocator locator;
  private final Consumer<String> notes;

  SplitUnits(
      DwarfContext ctx,
      ObjectSections dwpSections,
      String dwpName,
      DwoLocator locator,
      Consumer<String> notes) {
    this.ctx = ctx;
    this.dwpName = dwpName == null ? "package" : dwpName;
    this.locator = locator == null ? DwoLocator.NONE : locator;
    this.notes = notes;
    DwarfFile file = null;
    DwpIndex index = null;
    if (dwpSections != null) {
      try {
        Optional<Section> section = dwpSections.section(".debug_cu_index");
        if (section.isEmpty()) {
          notes.accept(this.dwpName + ": no .debug_cu_index: package not used");
        } else {
          index = DwpIndex.read(this.dwpName + ": .debug_cu_index", section.get().data());
          file = DwarfFile.dwo(dwpSections, this.dwpName);
        }
      } catch (DwarfException | ObjectFormatException e) {
        notes.accept(e.getMessage() + ": package not used");
        index = null;
        file = null;
      }
    }
    this.dwp = file;
    this.cuIndex = index;
  }

  /** The split unit of {@code skeleton}, its root read, or null (with a note saying why). */
  Unit find(Unit skeleton) {
    String what = "skeleton unit at " + skeleton.offset + " (" + skeleton.dwoName + ")";
    if (!skeleton.hasDwoId) {
      notes.accept(what + " has no DWO id: its .dwo is not read");
      return null;
    }
    String id = hex(skeleton.dwoId);
    if (cuIndex != null) {
      try {
        DwpIndex.Row row = cuIndex.find(skeleton.dwoId);
        if (row != null) {
          DwarfFile unitFile = dwp.contribution(dwpName + " unit " + id, row);
          Unit u = match(unitFile, skeleton, dwpName);
          if (u != null) {
            return u;
          }
        }
      } catch (DwarfException | ObjectFormatException e) {
        notes.accept(e.getMessage() + ": " + what + " keeps what the executable says");
        return null;
      }
    }
    if (skeleton.dwoName == null) {
      notes.accept(what + ", DWO id " + id + ": not in the package and no .dwo named");
      return null;
    }
    DwoLocator.Dwo dwo = locator.find(skeleton.dwoName, skeleton.compDir);
    if (dwo == null) {
      notes.accept(
          "split DWARF "
              + skeleton.dwoName
              + " (DWO id "
              + id
              + ") not found"
              + (dwp == null ? "" : " in " + dwpName)
              + ": only the skeleton's lines and the symbol table");
      return null;
    }
    try {
      return match(DwarfFile.dwo(dwo.sections(), dwo.path()), skeleton, dwo.path());
    } catch (DwarfException | ObjectFormatException e) {
      notes.accept(e.getMessage() + ": " + what + " keeps what the executable says");
      return null;
    }
  }

  /** The split compile unit with the skeleton's id among the units of {@code file}. */
  private Unit match(DwarfFile file, Unit skeleton, String where) throws DwarfException {
    long off = 0;
    String other = null;
    while (off < file.info.limit()) {
      long end = file.unitEnd(off);
      Unit h = file.header(off);
      boolean v5Split = h.unitType == Dw.UT_SPLIT_COMPILE;
      boolean v4 = h.version < 5 && h.unitType == Dw.UT_COMPILE;
      if (h.unitType == Dw.UT_SKELETON) {
        throw new DwarfException(
            where + ": unit at " + off + " is a skeleton unit itself: a .dwo is not followed");
      }
      if (v5Split || v4) {
        Unit u = ctx.splitUnit(file, off, skeleton);
        if (u.rootTag == Dw.TAG_SKELETON_UNIT) {
          throw new DwarfException(
              where + ": unit at " + off + " is a skeleton unit itself: a .dwo is not followed");
        }
        if (u.rootTag == Dw.TAG_COMPILE_UNIT && u.hasDwoId) {
          if (u.dwoId == skeleton.dwoId) {
            return u;
          }
          other = hex(u.dwoId);
        }
      }
      off = end;
    }
    notes.accept(
        where
            + (other == null
                ? " has no split compile unit"
                : " has DWO id " + other + ", the skeleton wants " + hex(skeleton.dwoId))
            + ": not used for "
            + skeleton.dwoName);
    return null;
  }

  private static String hex(long id) {
    return "0x" + HexFormat.of().toHexDigits(id);
  }
}
