package io.symbolicate.symbols.nativecode;

import static io.symbolicate.symbols.nativecode.NativeHostileInputTest.convert;
import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.table.TablePage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The parser's fast paths for line and INLINE records against its general tokenising path: the
 * same records with "\r\n" endings never take a fast path, so both must give the same table,
 * for numbers of every length (leading zeros, upper-case hex, more digits than fit) and for
 * malformed fields (letters in decimals, empty fields, "0x" prefixes, values out of range).
 */
class SymParserFastPathTest {
  private static final String HEAD =
      "MODULE Linux x86_64 0123456789ABCDEF0123456789ABCDEF0 m\n"
          + "FILE 0 a.c\nFILE 1 b.c\nINLINE_ORIGIN 0 f\nINLINE_ORIGIN 1 g\n";

  @Test
  void fastAndGeneralPathsGiveTheSameTable() throws IOException {
    Random r = new Random(29);
    StringBuilder sb = new StringBuilder(HEAD);
    long addr = 0x1000;
    int records = 0;
    // more than the parser's 1 MB buffer: lines also straddle its refills
    while (sb.length() < 3 << 20) {
      sb.append("FUNC ")
          .append(Long.toHexString(addr))
          .append(" 4000 0 fn")
          .append(records)
          .append('\n');
      for (int i = 0; i < 40; i++) {
        long a = addr + r.nextInt(0x4000);
        if (r.nextInt(3) == 0) {
          sb.append("INLINE ")
              .append(dec(r, r.nextInt(3)))
              .append(' ')
              .append(dec(r, r.nextInt(200)));
          if (r.nextBoolean()) {
            sb.append(' ').append(dec(r, r.nextInt(2))); // new format: a call-site file
          }
          sb.append(' ').append(dec(r, r.nextInt(2)));
          for (int k = 1 + r.nextInt(4); k > 0; k--) {
            sb.append(' ').append(hex(r, a)).append(' ').append(hex(r, 1 + r.nextInt(64)));
            a += 64 + r.nextInt(64);
          }
        } else {
          sb.append(hex(r, a))
              .append(' ')
              .append(hex(r, 1 + r.nextInt(32)))
              .append(' ')
              .append(dec(r, r.nextInt(100000)))
              .append(' ')
              .append(dec(r, r.nextInt(2)));
        }
        sb.append('\n');
        records++;
      }
      addr += 0x4000;
    }
    String fast = sb.toString();
    String general = fast.replace("\n", "\r\n");
    NativeTable a = convert(fast);
    NativeTable b = convert(general);
    NativeHeader ha = a.nativeHeader();
    NativeHeader hb = b.nativeHeader();
    assertThat(ha.lineCount()).isGreaterThan(records / 3);
    assertThat(ha.inlineRangeCount()).isGreaterThan(records / 10);
    assertThat(ha.badLineCount()).isGreaterThan(records / 100); // the malformed fields
    assertThat(hb.lineCount()).isEqualTo(ha.lineCount());
    assertThat(hb.inlineRangeCount()).isEqualTo(ha.inlineRangeCount());
    assertThat(hb.badLineCount()).isEqualTo(ha.badLineCount());
    assertThat(hb.badLineSamples()).isEqualTo(ha.badLineSamples());
    List<TablePage> pa = a.pages();
    List<TablePage> pb = b.pages();
    assertThat(pb).hasSameSizeAs(pa);
    for (int i = 0; i < pa.size(); i++) {
      assertThat(pb.get(i).firstKey()).isEqualTo(pa.get(i).firstKey());
      assertThat(pb.get(i).bytes()).as("page " + i).isEqualTo(pa.get(i).bytes());
    }
  }

  /** A decimal field, mostly plain, sometimes padded, too long or broken. */
  private static String dec(Random r, long v) {
    switch (r.nextInt(40)) {
      case 0:
        return "0000000" + v; // 8+ digits: the byte loop
      case 1:
        return "00000000000" + v; // more digits than an int's field allows
      case 2:
        return v + "a"; // not a number
      case 3:
        return "99999999999"; // overflows an int
      case 4:
        return ""; // an empty field (two spaces)
      default:
        return Long.toString(v);
    }
  }

  /** A hex field, mostly plain, sometimes upper case, padded, prefixed, too long or broken. */
  private static String hex(Random r, long v) {
    String h = Long.toHexString(v);
    switch (r.nextInt(40)) {
      case 0:
        return h.toUpperCase(Locale.ROOT);
      case 1:
        return "0000" + h; // 8 digits and more
      case 2:
        return "0000000000000000" + h; // more than 16 digits, valid once the zeros go
      case 3:
        return "0x" + h;
      case 4:
        return h + "g";
      case 5:
        return "ffffffffffffffff"; // Breakpad's invalid value
      case 6:
        return "";
      default:
        return h;
    }
  }

  @Test
  void fastLineFieldsAreReadExactly() throws IOException {
    // sizes of 1-7 hex digits in either case, line numbers of 1-7 digits, read exactly
    StringBuilder sb =
        new StringBuilder(
            "MODULE Linux x86_64 0123456789ABCDEF0123456789ABCDEF0 m\n"
                + "FILE 1234567 a.c\nFUNC 0 ffffffffff 0 f\n");
    String digits = "0123456789abcdefABCDEF";
    Random r = new Random(3);
    long[] starts = new long[1400];
    long[] ends = new long[starts.length];
    int[] lines = new int[starts.length];
    long addr = 0x10;
    for (int n = 0; n < starts.length; n++) {
      int len = 1 + n % 7;
      StringBuilder size = new StringBuilder("1");
      for (int i = 1; i < len; i++) {
        size.append(digits.charAt(r.nextInt(digits.length())));
      }
      lines[n] = r.nextInt((int) Math.pow(10, len));
      starts[n] = addr;
      addr += Long.parseLong(size.toString(), 16);
      ends[n] = addr;
      sb.append(Long.toHexString(starts[n]))
          .append(' ')
          .append(size)
          .append(' ')
          .append(lines[n])
          .append(" 1234567\n");
    }
    NativeTable t =
        convert(
            sb.toString().getBytes(StandardCharsets.ISO_8859_1), NativeSymbols.Options.defaults());
    assertThat(t.nativeHeader().badLineCount()).isZero();
    assertThat(t.nativeHeader().lineCount()).isEqualTo(starts.length);
    NativeSymbolizer s = NativeSymbolizer.inMemory(t);
    for (int n = 0; n < starts.length; n++) {
      NativeFrame first = s.lookup(starts[n]);
      NativeFrame last = s.lookup(ends[n] - 1);
      assertThat(first.line()).as("line %d", n).isEqualTo(lines[n]);
      assertThat(first.lineBase()).as("line %d", n).isEqualTo(starts[n]);
      assertThat(first.file()).isEqualTo("a.c");
      assertThat(last.lineBase()).as("line %d", n).isEqualTo(starts[n]);
    }
  }
}
