package io.symbolicate.symbols.cfi;

import io.symbolicate.symbols.objects.Section;
import java.io.ByteArrayOutputStream;
import java.nio.ByteOrder;

/** Builds {@code .eh_frame} / {@code .debug_frame} bytes by hand, little-endian, for tests. */
public final class CfiBytes {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  public int size() {
    return out.size();
  }

  public CfiBytes u8(int... v) {
    for (int b : v) {
      out.write(b);
    }
    return this;
  }

  public CfiBytes u16(int v) {
    return u8(v & 0xFF, (v >>> 8) & 0xFF);
  }

  public CfiBytes u32(long v) {
    return u16((int) v & 0xFFFF).u16((int) (v >>> 16) & 0xFFFF);
  }

  public CfiBytes u64(long v) {
    return u32(v & 0xFFFFFFFFL).u32(v >>> 32);
  }

  public CfiBytes uleb(long v) {
    do {
      int b = (int) (v & 0x7F);
      v >>>= 7;
      out.write(v != 0 ? b | 0x80 : b);
    } while (v != 0);
    return this;
  }

  public CfiBytes sleb(long v) {
    while (true) {
      int b = (int) (v & 0x7F);
      v >>= 7;
      boolean done = (v == 0 && (b & 0x40) == 0) || (v == -1 && (b & 0x40) != 0);
      out.write(done ? b : b | 0x80);
      if (done) {
        return this;
      }
    }
  }

  public CfiBytes ascii(String s) {
    for (char c : s.toCharArray()) {
      out.write(c);
    }
    return this;
  }

  public CfiBytes bytes(byte[] b) {
    out.write(b, 0, b.length);
    return this;
  }

  public byte[] toByteArray() {
    return out.toByteArray();
  }

  /** An entry: a 32-bit length, then {@code body}; padded with nops to a multiple of 4. */
  public CfiBytes entry(CfiBytes body) {
    byte[] b = body.toByteArray();
    int pad = (4 - b.length % 4) % 4;
    u32(b.length + pad).bytes(b);
    for (int i = 0; i < pad; i++) {
      out.write(0);
    }
    return this;
  }

  /**
   * An {@code .eh_frame} CIE "zR" with the x86-64 defaults GCC writes: code alignment 1, data
   * alignment -8, return address 16, FDE pointers pcrel|sdata4, then {@code instructions}.
   */
  public static CfiBytes ehCie(int version, String aug, int fdeEncoding, byte[] instructions) {
    CfiBytes c = new CfiBytes().u32(0).u8(version).ascii(aug).u8(0).uleb(1).sleb(-8);
    if (version == 1) {
      c.u8(16);
    } else {
      c.uleb(16);
    }
    if (aug.startsWith("z")) {
      c.uleb(1).u8(fdeEncoding);
    }
    return c.bytes(instructions);
  }

  public static byte[] ops(int... b) {
    byte[] r = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      r[i] = (byte) b[i];
    }
    return r;
  }

  public Section section(String name, long address) {
    return Section.of(name, address, toByteArray(), ByteOrder.LITTLE_ENDIAN);
  }
}
