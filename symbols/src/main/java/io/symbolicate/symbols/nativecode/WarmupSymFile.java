package io.symbolicate.symbols.nativecode;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * A synthetic Breakpad file shaped like {@code dump_syms} output of a large C++ binary, to warm
 * the converter's compiled code before the first real file. Its proportions follow a real 130 MB
 * file (ceph-osd: per FUNC ~60 line records and ~30 INLINE records nested up to 7 deep, zero-size
 * inline ranges, a few FUNCs out of address order or overlapping, PUBLICs and STACK CFI after
 * them), so the JIT sees every branch the real file takes: code compiled on a tidier sample
 * meets unseen branches in the real file, is thrown away and compiled again mid-load. Hence also
 * the rare shapes that make the converter's buffers grow: a few huge functions (thousands of
 * lines), names of several KB (FUNC, PUBLIC and INLINE_ORIGIN names alike), INLINE records with
 * dozens of ranges, a name that hardly compresses; and PUBLICs below the first FUNC and past the
 * last (dump_syms emits them for code without debug info), so the page cutter's merge of the two
 * runs out of FUNCs first. Each of these was seen compiled out of the converter and thrown away
 * during a load of ceph-osd (flight recording, docs/benchmarks.md, session 19).
 */
public final class WarmupSymFile {
  private static final String[] SCOPES = {
    "std",
    "boost::asio::detail",
    "ceph::buffer::v15_2_0",
    "OSD",
    "PrimaryLogPG",
    "rocksdb",
    "seastar::internal",
    "google::protobuf::internal"
  };
  private static final String[] LEAVES = {
    "operator()",
    "get_health_metrics",
    "handle_message",
    "rethrow",
    "dispatch",
    "~basic_string",
    "encode",
    "decode",
    "list::iterator_impl<true>::copy"
  };

  private WarmupSymFile() {}

  /** A file of about {@code functions} FUNCs (~3.3 KB of text each), the same for the same seed. */
  public static byte[] generate(int functions, long seed) {
    Random rnd = new Random(seed);
    StringBuilder b = new StringBuilder(functions * 2400);
    b.append("MODULE Linux x86_64 5EED0000000000000000000000000000")
        .append(Long.toHexString(seed & 0xF))
        .append(" warmup.so\n");
    b.append("INFO CODE_ID 5EED000000000000000000000000000000000000\n");
    int files = 64 + functions / 16;
    for (int f = 0; f < files; f++) {
      b.append("FILE ")
          .append(f)
          .append(" /usr/include/c++/11/bits/")
          .append(LEAVES[f % LEAVES.length].length())
          .append("/stl_part")
          .append(f)
          .append(".h\n");
    }
    int origins = 64 + functions * 2;
    for (int o = 0; o < origins; o++) {
      b.append("INLINE_ORIGIN ")
          .append(o)
          .append(' ')
          .append(o % 500 == 250 ? longName(rnd) : name(rnd))
          .append('\n');
    }

    long[] starts = new long[functions];
    long[] sizes = new long[functions];
    long addr = 0x4c9000;
    for (int i = 0; i < functions; i++) {
      sizes[i] =
          i % 1000 == 500 ? 0x8000 : 0x20 + rnd.nextInt(rnd.nextInt(8) == 0 ? 0x2000 : 0x180);
      starts[i] = addr;
      addr += sizes[i] + rnd.nextInt(0x20);
    }
    // a few FUNCs out of address order (the converter then keeps a tree) and a few overlaps
    for (int i = 1; i < functions; i += 40 + rnd.nextInt(40)) {
      int j = Math.min(functions - 1, i + 1 + rnd.nextInt(6));
      long s = starts[i];
      starts[i] = starts[j];
      starts[j] = s;
      long z = sizes[i];
      sizes[i] = sizes[j];
      sizes[j] = z;
    }
    for (int i = 0; i < functions; i++) {
      long start = starts[i];
      long size = sizes[i];
      String fname =
          i == functions / 2 && functions >= 1000
              ? noisyName(rnd)
              : i % 700 == 300 ? longName(rnd) : name(rnd);
      b.append("FUNC ")
          .append(i % 23 == 0 ? "m " : "")
          .append(hex(start))
          .append(' ')
          .append(hex(size))
          .append(" 0 ")
          .append(fname)
          .append('\n');
      inlines(b, rnd, 0, start, size, origins, files, 3 + rnd.nextInt(6));
      if (i % 300 == 100) {
        b.append("INLINE 0 7 1 2");
        for (int r = 0; r < 48; r++) {
          b.append(' ').append(hex(start + r * 2L)).append(" 1");
        }
        b.append('\n');
      }
      lines(b, rnd, start, size, files);
      if (i % 97 == 5) {
        // an overlapping duplicate: Breakpad keeps the first, drops this one and its lines
        b.append("FUNC ")
            .append(hex(start + 4))
            .append(' ')
            .append(hex(size))
            .append(" 0 ")
            .append(name(rnd))
            .append('\n')
            .append(hex(start + 4))
            .append(" 4 1 0\n");
      }
    }
    // PUBLICs outside every FUNC: below the first, and past the last (so FUNCs run out first)
    b.append("PUBLIC 1000 0 _init\n");
    for (int k = 1; k <= 8; k++) {
      b.append("PUBLIC ")
          .append(hex(addr + 0x100L * k))
          .append(" 0 ")
          .append(name(rnd))
          .append('\n');
    }
    for (int i = 0; i < functions / 5; i++) {
      long a = starts[rnd.nextInt(functions)] + (i % 3 == 0 ? 8 : 0);
      b.append("PUBLIC ")
          .append(i % 31 == 0 ? "m " : "")
          .append(hex(a))
          .append(" 0 ")
          .append(i % 400 == 200 ? longName(rnd) : name(rnd))
          .append(i % 7 == 0 ? " [clone .cold]" : "")
          .append('\n');
    }
    for (int i = 0; i < functions; i++) {
      b.append("STACK CFI INIT ")
          .append(hex(starts[i]))
          .append(' ')
          .append(hex(sizes[i]))
          .append(" .cfa: $rsp 8 + .ra: .cfa -8 + ^\n");
      for (int k = rnd.nextInt(9); k > 0; k--) {
        b.append("STACK CFI ")
            .append(hex(starts[i] + k * 2L))
            .append(" .cfa: $rsp ")
            .append(8 + 8 * k)
            .append(" +\n");
      }
    }
    return b.toString().getBytes(StandardCharsets.US_ASCII);
  }

  /** INLINE records for one nest level within [start, start+size), then each one's children. */
  private static void inlines(
      StringBuilder b,
      Random rnd,
      int level,
      long start,
      long size,
      int origins,
      int files,
      int count) {
    if (size < 4 || level > 7) {
      return;
    }
    for (int c = 0; c < count; c++) {
      int ranges = 1 + rnd.nextInt(4);
      long from = start + rnd.nextInt((int) Math.max(1, size / 2));
      long room = start + size - from;
      b.append("INLINE ")
          .append(level)
          .append(' ')
          .append(1 + rnd.nextInt(900))
          .append(' ')
          .append(rnd.nextInt(files))
          .append(' ')
          .append(rnd.nextInt(origins));
      long childFrom = from;
      long childSize = 0;
      for (int r = 0; r < ranges && room > 0; r++) {
        // zero-size ranges are common in real files (the converter drops them)
        long len = rnd.nextInt(5) == 0 ? 0 : 1 + rnd.nextInt((int) Math.min(room, 0x80));
        b.append(' ').append(hex(from)).append(' ').append(hex(len));
        if (r == 0) {
          childFrom = from;
          childSize = len;
        }
        from += len + rnd.nextInt(0x10);
        room = start + size - from;
      }
      b.append('\n');
      if (rnd.nextInt(3) > 0) {
        inlines(b, rnd, level + 1, childFrom, childSize, origins, files, 1 + rnd.nextInt(3));
      }
    }
  }

  /** Line records covering the function, with the odd gap, one-byte record and line 0. */
  private static void lines(StringBuilder b, Random rnd, long start, long size, int files) {
    long a = start;
    int line = 1 + rnd.nextInt(2000);
    while (a < start + size) {
      long len = Math.min(start + size - a, 1 + rnd.nextInt(rnd.nextInt(4) == 0 ? 0x20 : 8));
      line = Math.max(0, line + rnd.nextInt(21) - 10);
      b.append(hex(a))
          .append(' ')
          .append(hex(len))
          .append(' ')
          .append(rnd.nextInt(50) == 0 ? 0 : line)
          .append(' ')
          .append(rnd.nextInt(files))
          .append('\n');
      a += len + (rnd.nextInt(30) == 0 ? 2 : 0);
    }
  }

  private static String name(Random rnd) {
    StringBuilder n = new StringBuilder(SCOPES[rnd.nextInt(SCOPES.length)]);
    for (int d = rnd.nextInt(3); d > 0; d--) {
      n.append("::").append(SCOPES[rnd.nextInt(SCOPES.length)].replace("::", "_"));
    }
    n.append("::").append(LEAVES[rnd.nextInt(LEAVES.length)]);
    if (rnd.nextBoolean()) {
      n.append(
          "<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > >");
    }
    n.append(rnd.nextInt(4) == 0 ? "(void*, unsigned long) const" : "()");
    return n.toString();
  }

  /** A name of several KB, as deeply nested templates give (real files have names of 10 KB and more). */
  private static String longName(Random rnd) {
    StringBuilder n = new StringBuilder(name(rnd));
    for (int k = 20 + rnd.nextInt(60); k > 0; k--) {
      n.insert(n.length() - 2, ", std::tuple<" + name(rnd) + ">");
    }
    return n.toString();
  }

  /**
   * A 96 KB name of random identifier characters (in files of 1,000 FUNCs or more): a page that
   * hardly compresses, so the page encoder's output outgrows its first guess by far.
   */
  private static String noisyName(Random rnd) {
    String chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
    StringBuilder n = new StringBuilder("_ZN5noisy");
    for (int k = 96 << 10; k > 0; k--) {
      n.append(chars.charAt(rnd.nextInt(chars.length())));
    }
    return n.append("Ev").toString();
  }

  private static String hex(long v) {
    return Long.toHexString(v);
  }
}
