package io.symbolicate.symbols.minidump.walk;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * The unwind records of one Breakpad symbol file, held the way Breakpad's resolver holds them:
 * {@code STACK CFI INIT} ranges (first stored wins), {@code STACK CFI} deltas by address (last
 * wins), {@code STACK WIN} records of the FPO and frame-data types in contained-range maps, and
 * FUNC parameter sizes (x86 walks use them for the callee's parameters).
 */
public final class UnwindIndex {
  private final RangeMap<String> cfiInit = new RangeMap<>(false);
  private final TreeMap<Long, String> cfiDelta = new TreeMap<>(Long::compareUnsigned);
  private final ContainedRangeMap<WinFrameInfo> winFpo = new ContainedRangeMap<>();
  private final ContainedRangeMap<WinFrameInfo> winFrameData = new ContainedRangeMap<>();
  private final RangeMap<Long> funcParams = new RangeMap<>(false);
  private int badLines;

  /** Reads the STACK and FUNC records of a .sym stream (other records are skipped). */
  public static UnwindIndex read(InputStream in) throws IOException {
    UnwindIndex idx = new UnwindIndex();
    BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
    String line;
    while ((line = r.readLine()) != null) {
      if (line.startsWith("STACK ")) {
        if (!idx.stack(line.substring(6))) {
          idx.badLines++;
        }
      } else if (line.startsWith("FUNC ")) {
        idx.func(line.substring(5));
      }
    }
    return idx;
  }

  public int badLines() {
    return badLines;
  }

  /** Parses one STACK record's text after "STACK "; false when malformed. */
  boolean stack(String s) {
    s = s.stripLeading();
    if (s.startsWith("CFI ")) {
      return cfi(s.substring(4));
    }
    if (s.startsWith("WIN ")) {
      return win(s.substring(4));
    }
    return false;
  }

  private boolean cfi(String s) {
    String[] t = s.strip().split("[ \r\n]+", 2);
    if (t[0].equals("INIT")) {
      String[] f = t.length > 1 ? t[1].split("[ \r\n]+", 3) : new String[0];
      if (f.length < 3) {
        return false;
      }
      cfiInit.store(hexPrefix(f[0]), hexPrefix(f[1]), f[2]);
      return true;
    }
    if (t.length < 2) {
      return false;
    }
    cfiDelta.put(hexPrefix(t[0]), t[1]);
    return true;
  }

  private boolean win(String s) {
    String[] t = s.strip().split("[ \r\n]+", 11);
    if (t.length < 11) {
      return false;
    }
    long type = hexPrefix(t[0]);
    if (type < 0 || type > 4) {
      return false;
    }
    long rva = hexPrefix(t[1]);
    long size = hexPrefix(t[2]);
    boolean hasProgram = (hexPrefix(t[9]) & 0xFFFFFFFFL) != 0;
    WinFrameInfo w = new WinFrameInfo((int) type, true, hex32(t[3]), hex32(t[4]), hex32(t[5]),
        hex32(t[6]), hex32(t[7]), hex32(t[8]), !hasProgram && hex32(t[10]) != 0,
        hasProgram ? t[10] : "");
    if (type == WinFrameInfo.TYPE_FPO) {
      winFpo.store(rva, size, w);
    } else if (type == WinFrameInfo.TYPE_FRAME_DATA) {
      winFrameData.store(rva, size, w);
    }
    return true;
  }

  private void func(String s) {
    if (s.startsWith("m ")) {
      s = s.substring(2);
    }
    String[] t = s.split(" ", 4);
    if (t.length < 4) {
      return;
    }
    funcParams.store(hexPrefix(t[0]), hexPrefix(t[1]), hexPrefix(t[2]));
  }

  private static long hex32(String s) {
    return hexPrefix(s) & 0xFFFFFFFFL;
  }

  /** strtoull(s, NULL, 16): the leading hex digits (after an optional 0x), 0 when none. */
  static long hexPrefix(String s) {
    int i = 0;
    if (s.length() > 2 && s.charAt(0) == '0' && (s.charAt(1) == 'x' || s.charAt(1) == 'X')) {
      i = 2;
    }
    long v = 0;
    for (; i < s.length(); i++) {
      int d = Character.digit(s.charAt(i), 16);
      if (d < 0) {
        break;
      }
      if ((v >>> 60) != 0) {
        return -1; // strtoull saturates at ULLONG_MAX
      }
      v = (v << 4) | d;
    }
    return v;
  }

  /** The CFI rules at {@code rel}, or null when no INIT range holds it or its rules are bad. */
  public CfiRules cfiRules(long rel) {
    RangeMap.Range<String> init = cfiInit.find(rel);
    if (init == null) {
      return null;
    }
    CfiRules rules = new CfiRules();
    if (!rules.apply(init.value())) {
      return null;
    }
    for (Map.Entry<Long, String> d : cfiDelta.subMap(init.base(), true, rel, true).entrySet()) {
      rules.apply(d.getValue());
    }
    return rules;
  }

  /** STACK WIN at {@code rel} (frame data, then FPO), else the holding FUNC's parameter size. */
  public WinFrameInfo windowsFrameInfo(long rel) {
    WinFrameInfo w = winFrameData.find(rel);
    if (w == null) {
      w = winFpo.find(rel);
    }
    if (w != null) {
      return w;
    }
    RangeMap.Range<Long> f = funcParams.find(rel);
    return f == null ? null : WinFrameInfo.parameterSizeOnly(f.value() & 0xFFFFFFFFL);
  }
}
