package io.symbolicate.symbols.cfi;

import io.symbolicate.symbols.objects.Section;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * The entries of one {@code .eh_frame} or {@code .debug_frame} section: CIEs (parsed once, by
 * offset) and FDEs, in section order. The two sections differ in the CIE id (0 against all
 * ones), in how an FDE points at its CIE (backwards from itself against a section offset), in
 * what ends the section (a zero length against nothing), and in pointer encodings (only {@code
 * .eh_frame} has them).
 */
final class FrameSection {
  enum Kind {
    EH_FRAME,
    DEBUG_FRAME
  }

  /** What the reader hands out: an FDE, or why one (or the rest of the section) was skipped. */
  interface Visitor {
    void fde(Fde fde);

    void skipped(int offset, String reason);
  }

  private final ByteBuffer data;
  private final Kind kind;
  private final int addressSize;
  private final PointerEncoding.Bases bases;
  private final Map<Integer, Object> cies = new HashMap<>();

  FrameSection(Section section, Kind kind, int addressSize, PointerEncoding.Bases bases) {
    this.data = section.data();
    this.kind = kind;
    this.addressSize = addressSize;
    this.bases = bases;
  }

  ByteBuffer data() {
    return data;
  }

  /**
   * Visits every FDE. An entry whose length runs past the section ends the walk (nothing after it
   * can be found); a bad CIE or FDE is skipped.
   */
  void forEach(Visitor visitor) {
    int pos = 0;
    int limit = data.limit();
    while (pos < limit) {
      int entryOffset = pos;
      Entry entry;
      try {
        entry = entryAt(pos);
      } catch (CfiException e) {
        visitor.skipped(entryOffset, "rest of the section: " + e.getMessage());
        return;
      }
      if (entry == null) {
        if (kind == Kind.EH_FRAME) {
          return; // the zero terminator
        }
        pos += 4; // a zero length in .debug_frame: a known assembler bug, skipped as gimli does
        continue;
      }
      pos = entry.body.end();
      if (entry.isCie) {
        try {
          cie(entryOffset);
        } catch (CfiException e) {
          visitor.skipped(entryOffset, "CIE: " + e.getMessage());
        }
        continue;
      }
      Fde fde;
      try {
        fde = fde(entryOffset, entry);
      } catch (CfiException e) {
        visitor.skipped(entryOffset, "FDE: " + e.getMessage());
        continue;
      }
      if (fde != null) {
        visitor.fde(fde);
      }
    }
  }

  /** The FDE at {@code offset} (compact unwind info points at one), or null for a tombstone. */
  Fde fdeAt(int offset) {
    if (offset < 0 || offset >= data.limit()) {
      throw new CfiException("offset " + offset + " outside the section");
    }
    Entry entry = entryAt(offset);
    if (entry == null || entry.isCie) {
      throw new CfiException("no FDE at offset " + offset);
    }
    return fde(offset, entry);
  }

  private record Entry(boolean isCie, boolean dwarf64, long id, int idEnd, SectionCursor body) {}

  /** The entry at {@code offset}, or null for a zero length. */
  private Entry entryAt(int offset) {
    SectionCursor in = new SectionCursor(data, offset, data.limit());
    long length = in.u32();
    boolean dwarf64 = false;
    if (length == 0xFFFFFFFFL) {
      length = in.u64();
      dwarf64 = true;
    } else if (length >= 0xFFFFFFF0L) {
      throw new CfiException("reserved initial length 0x" + Long.toHexString(length));
    }
    if (length == 0) {
      return null;
    }
    SectionCursor body = in.split(length);
    int idStart = body.position();
    long id;
    boolean isCie;
    if (kind == Kind.EH_FRAME) {
      id = body.u32();
      isCie = id == 0;
    } else if (dwarf64) {
      id = body.u64();
      isCie = id == -1L;
    } else {
      id = body.u32();
      isCie = id == 0xFFFFFFFFL;
    }
    long cieOffset = id;
    if (!isCie && kind == Kind.EH_FRAME) {
      cieOffset = idStart - id; // backwards from the id field itself
    }
    return new Entry(isCie, dwarf64, cieOffset, idStart, body);
  }

  /** The CIE at {@code offset}, parsed once; a bad one is remembered as its error. */
  Cie cie(int offset) {
    Object cached = cies.get(offset);
    if (cached == null) {
      try {
        cached = parseCie(offset);
      } catch (CfiException e) {
        cached = e;
      }
      cies.put(offset, cached);
    }
    if (cached instanceof CfiException e) {
      throw new CfiException(e.getMessage());
    }
    return (Cie) cached;
  }

  private Cie parseCie(int offset) {
    Entry entry = entryAt(offset);
    if (entry == null || !entry.isCie) {
      throw new CfiException("no CIE at offset " + offset);
    }
    SectionCursor in = entry.body;
    int version = in.u8();
    if (version != 1 && version != 3 && version != 4) {
      throw new CfiException("CIE version " + version);
    }
    SectionCursor aug = in.cstring();
    int cieAddressSize = addressSize;
    if (aug.remaining() >= 2 && aug.peek(0) == 'e' && aug.peek(1) == 'h') {
      aug.skip(2);
      in.skip(addressSize); // old GCC's "eh": the EH data pointer follows the string
    }
    if (kind == Kind.DEBUG_FRAME && version == 4) {
      cieAddressSize = in.u8();
      int segmentSize = in.u8();
      if (segmentSize != 0) {
        throw new CfiException("segment size " + segmentSize);
      }
      if (cieAddressSize != 1
          && cieAddressSize != 2
          && cieAddressSize != 4
          && cieAddressSize != 8) {
        throw new CfiException("address size " + cieAddressSize);
      }
    }
    long codeAlignment = in.uleb();
    long dataAlignment = in.sleb();
    long ra = version == 1 ? in.u8() : in.uleb();
    if (ra > 0xFFFF) {
      throw new CfiException("return address register " + Long.toUnsignedString(ra));
    }
    int fdeEncoding = -1;
    int lsdaEncoding = -1;
    boolean z = false;
    boolean signal = false;
    SectionCursor augData = null;
    boolean first = true;
    while (!aug.atEnd()) {
      int ch = aug.u8();
      if (ch == 'z' && first) {
        z = true;
        augData = in.split(in.uleb());
      } else if (augData == null) {
        // without 'z' nothing tells how long the unknown augmentation's data is
        throw new CfiException("augmentation '" + (char) ch + "' without 'z'");
      } else if (ch == 'L') {
        lsdaEncoding = PointerEncoding.read(augData);
      } else if (ch == 'P') {
        int enc = PointerEncoding.read(augData);
        PointerEncoding.pointer(enc, augData, bases, null, cieAddressSize);
      } else if (ch == 'R') {
        fdeEncoding = PointerEncoding.read(augData);
      } else if (ch == 'S') {
        signal = true;
      } else {
        break; // 'z' gave the data's length: an unknown letter skips the rest (Breakpad's rule)
      }
      first = false;
    }
    return new Cie(
        offset,
        version,
        cieAddressSize,
        codeAlignment,
        dataAlignment,
        ra,
        fdeEncoding == PointerEncoding.OMIT ? -1 : fdeEncoding,
        lsdaEncoding,
        z,
        signal,
        in.position(),
        in.end());
  }

  private Fde fde(int offset, Entry entry) {
    if (entry.id < 0 || entry.id >= data.limit()) {
      throw new CfiException("CIE pointer out of the section: " + entry.id);
    }
    Cie cie = cie((int) entry.id);
    SectionCursor in = entry.body;
    long initial;
    long range;
    if (cie.fdeEncoding() >= 0) {
      initial = PointerEncoding.pointer(cie.fdeEncoding(), in, bases, null, cie.addressSize());
      range =
          PointerEncoding.mask(PointerEncoding.value(cie.fdeEncoding(), in, cie.addressSize()), 8);
    } else {
      initial = in.address(cie.addressSize());
      range = in.address(cie.addressSize());
    }
    if (cie.hasAugmentationData()) {
      SectionCursor augData = in.split(in.uleb());
      if (cie.lsdaEncoding() >= 0 && cie.lsdaEncoding() != PointerEncoding.OMIT) {
        PointerEncoding.pointer(cie.lsdaEncoding(), augData, bases, initial, cie.addressSize());
      }
    }
    if (initial == -1L) {
      return null; // a tombstone some tools leave: never a real function (symbolic skips it too)
    }
    return new Fde(offset, cie, initial, range, in.position(), in.end());
  }
}
