package io.symbolicate.symbols.dwarf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.symbolicate.symbols.dumpsyms.SymWriter;
import io.symbolicate.symbols.objects.ObjectSections;
import io.symbolicate.symbols.objects.ObjectSymbol;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Split DWARF: skeleton units completed from their {@code .dwo} file or {@code .dwp} package
 * (DWARF 5 and GNU's DWARF 4), and the hostile cases: a DWO id that does not match, a {@code .dwo}
 * that is a skeleton again, a package index that lies about its slots and contributions, a
 * missing {@code .dwo}. None of them fails the dump: the skeleton keeps the symbol table's
 * functions and a note says why.
 */
@Timeout(20)
class SplitDwarfTest {
  private static final long ID = 0x1122334455667788L;
  private static final String SPLIT = "FUNC 1000 20 0 split_a\nFUNC 1040 10 0 split_b\n";
  private static final String FROM_SYMBOLS = "FUNC 1000 30 0 sym_a\n";

  private final List<String> notes = new ArrayList<>();

  private String read(ObjectSections main, ObjectSections dwp, DwoLocator locator)
      throws Exception {
    SymWriter w = new SymWriter();
    new DwarfReader(main, DwarfOptions.defaults())
        .withPackage(dwp, dwp == null ? null : "app.dwp")
        .withDwoLocator(locator)
        .withNotes(notes::add)
        .withSymbols(List.of(new ObjectSymbol("sym_a", 0x1000, 0x30)))
        .read(w);
    StringWriter out = new StringWriter();
    w.writeTo(out);
    return out.toString();
  }

  private static byte[] bytes(ObjectSections s, String name) {
    ByteBuffer b = s.section(name).orElseThrow().data();
    byte[] a = new byte[b.limit()];
    b.get(0, a);
    return a;
  }

  private static DwoLocator serving(ObjectSections dwo) {
    return (name, dir) ->
        TinySplitDwarf.DWO_NAME.equals(name) ? new DwoLocator.Dwo("unit.dwo", dwo) : null;
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 5})
  void skeletonIsCompletedFromItsDwo(int version) throws Exception {
    String out =
        read(TinySplitDwarf.skeleton(version, ID), null, serving(TinySplitDwarf.dwo(version, ID)));
    assertThat(out).isEqualTo(SPLIT);
    assertThat(notes).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 5})
  void skeletonIsCompletedFromThePackage(int version) throws Exception {
    List<String> asked = new ArrayList<>();
    String out =
        read(
            TinySplitDwarf.skeleton(version, ID),
            TinySplitDwarf.dwp(version, ID),
            (name, dir) -> {
              asked.add(name);
              return null;
            });
    assertThat(out).isEqualTo(SPLIT);
    assertThat(asked).as("no .dwo looked for").isEmpty();
    assertThat(notes).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 5})
  void fuzzTargetInputOfTheTinyPackageReadsItsUnits(int version) throws Exception {
    byte[] seed =
        FuzzSections.encode(
            SplitDwarfFuzzSeeds.merged(
                TinySplitDwarf.skeleton(version, ID), TinySplitDwarf.dwp(version, ID)),
            0,
            FuzzSections.SPLIT_NAMES);
    FuzzSections s = new FuzzSections(seed, FuzzSections.SPLIT_NAMES);
    assertThat(read(s, s, DwoLocator.NONE)).isEqualTo(SPLIT);
  }

  @Test
  void packageIndexFindsAnIdAfterCollisions() throws Exception {
    // four ids in the same first slot: the lookup probes on with the secondary hash
    long[] ids = {ID + 0x100000000L * 2, ID + 0x100000000L * 4, ID + 0x100000000L * 6, ID};
    byte[] idx =
        TinySplitDwarf.index(
            5,
            ids,
            new int[] {1},
            new long[][] {{0}, {0}, {0}, {0}},
            new long[][] {{1}, {2}, {3}, {4}},
            8);
    DwpIndex index = DwpIndex.read("t", ByteBuffer.wrap(idx).order(ByteOrder.LITTLE_ENDIAN));
    assertThat(index.find(ID).size(0)).isEqualTo(4);
    assertThat(index.find(ids[1]).size(0)).isEqualTo(2);
    assertThat(index.find(ID + 1)).isNull();
    assertThat(index.signatures()).containsExactlyInAnyOrder(ids);
  }

  @Test
  void dwoIdMismatchIsRefused() throws Exception {
    String out = read(TinySplitDwarf.skeleton(5, ID), null, serving(TinySplitDwarf.dwo(5, ID + 1)));
    assertThat(out).isEqualTo(FROM_SYMBOLS);
    assertThat(notes)
        .singleElement()
        .asString()
        .contains("has DWO id 0x1122334455667789, the skeleton wants 0x1122334455667788");
  }

  @Test
  void gnuDwoIdMismatchIsRefused() throws Exception {
    String out = read(TinySplitDwarf.skeleton(4, ID), null, serving(TinySplitDwarf.dwo(4, ID ^ 1)));
    assertThat(out).isEqualTo(FROM_SYMBOLS);
    assertThat(notes).singleElement().asString().contains("the skeleton wants");
  }

  @Test
  void missingDwoKeepsTheSkeletonAndTheSymbols() throws Exception {
    String out = read(TinySplitDwarf.skeleton(5, ID), null, DwoLocator.NONE);
    assertThat(out).isEqualTo(FROM_SYMBOLS);
    assertThat(notes).singleElement().asString().contains("unit.dwo").contains("not found");
  }

  @Test
  void dwoThatIsASkeletonAgainIsNotFollowed() throws Exception {
    // the "split" file holds the executable's skeleton unit, naming unit.dwo again
    TinyDwarf main = TinySplitDwarf.skeleton(5, ID);
    TinyDwarf loop =
        new TinyDwarf()
            .put(".debug_info.dwo", bytes(main, ".debug_info"))
            .put(".debug_abbrev.dwo", bytes(main, ".debug_abbrev"));
    int[] asked = new int[1];
    String out =
        read(
            main,
            null,
            (name, dir) -> {
              asked[0]++;
              return new DwoLocator.Dwo("unit.dwo", loop);
            });
    assertThat(out).isEqualTo(FROM_SYMBOLS);
    assertThat(asked[0]).isEqualTo(1);
    assertThat(notes).singleElement().asString().contains("skeleton unit itself");
  }

  @Test
  void packageSlotPointingOutsideItsSectionsIsRefused() throws Exception {
    TinyDwarf dwp = TinySplitDwarf.dwp(5, ID);
    int infoSize = dwp.section(".debug_info.dwo").orElseThrow().size();
    dwp.put(
        ".debug_cu_index",
        TinySplitDwarf.index(
            5,
            new long[] {ID},
            new int[] {1, 3},
            new long[][] {{0xfffffff0L, 0}},
            new long[][] {{infoSize, 10}},
            4));
    String out = read(TinySplitDwarf.skeleton(5, ID), dwp, DwoLocator.NONE);
    assertThat(out).isEqualTo(FROM_SYMBOLS);
    assertThat(notes).singleElement().asString().contains("outside its");
  }

  @Test
  void packageRowBeyondItsUnitsIsRefused() throws Exception {
    byte[] idx =
        TinySplitDwarf.index(
            5, new long[] {ID}, new int[] {1}, new long[][] {{0}}, new long[][] {{1}}, 4);
    // slot of ID (its low bits) names row 3 of 1
    int rowAt = 16 + 4 * 8 + (int) (ID & 3) * 4;
    idx[rowAt] = 3;
    TinyDwarf dwp = TinySplitDwarf.dwp(5, ID).put(".debug_cu_index", idx);
    String out = read(TinySplitDwarf.skeleton(5, ID), dwp, DwoLocator.NONE);
    assertThat(out).isEqualTo(FROM_SYMBOLS);
    assertThat(notes).singleElement().asString().contains("row 3 of 1 rows");
  }

  @Test
  void packageIndexWhoseCountsLieIsRefused() throws Exception {
    byte[] notPowerOfTwo =
        TinySplitDwarf.index(
            5, new long[] {ID}, new int[] {1}, new long[][] {{0}}, new long[][] {{1}}, 3);
    DwarfException e =
        assertThrows(
            DwarfException.class,
            () ->
                DwpIndex.read("t", ByteBuffer.wrap(notPowerOfTwo).order(ByteOrder.LITTLE_ENDIAN)));
    assertThat(e.getMessage()).contains("not a power of two");
    // 2^30 slots claimed in a few bytes: refused before anything is allocated
    byte[] huge = new TinyDwarf.Bytes().u16(5).u16(0).u32(1).u32(1).u32(1L << 30).toArray();
    e =
        assertThrows(
            DwarfException.class,
            () -> DwpIndex.read("t", ByteBuffer.wrap(huge).order(ByteOrder.LITTLE_ENDIAN)));
    assertThat(e.getMessage()).contains("the section has 16");
    // the reader notes it and keeps the skeleton
    TinyDwarf dwp = TinySplitDwarf.dwp(5, ID).put(".debug_cu_index", huge);
    String out = read(TinySplitDwarf.skeleton(5, ID), dwp, DwoLocator.NONE);
    assertThat(out).isEqualTo(FROM_SYMBOLS);
    assertThat(notes).anyMatch(n -> n.contains("package not used"));
  }

  @Test
  void packageWhoseSlotsAreAllTakenEnds() throws Exception {
    // every slot filled with other ids: the probe stops after visiting each slot once
    long[] ids = {1, 2, 3, 4};
    byte[] idx =
        TinySplitDwarf.index(
            5,
            ids,
            new int[] {1},
            new long[][] {{0}, {0}, {0}, {0}},
            new long[][] {{1}, {1}, {1}, {1}},
            4);
    DwpIndex index = DwpIndex.read("t", ByteBuffer.wrap(idx).order(ByteOrder.LITTLE_ENDIAN));
    assertThat(index.find(ID)).isNull();
  }
}
