package io.symbolicate.symbols.nativecode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A page's unwind records, decoded on first use and held the way Breakpad's resolver holds them:
 * STACK CFI INIT ranges that overlap an earlier one are dropped, the last STACK CFI delta at an
 * address wins, STACK WIN ranges nest by containment (per type), the first FUNC parameter size
 * at an address wins. Every record another one interacts with sits in the same page (pages are
 * not cut inside a range), so these page-local rules give Breakpad's whole-file answers.
 */
final class UnwindSection {
  private final long[] initStart;
  private final long[] initHigh;
  private final String[] initRules;
  private final long[] deltaAddr;
  private final String[] deltaRules;
  private final ContainedRangeMap<StackWinRecord> winFpo = new ContainedRangeMap<>();
  private final ContainedRangeMap<StackWinRecord> winFrameData = new ContainedRangeMap<>();
  private final long[] paramAddr;
  private final long[] paramSize;

  private record Entry(long addr, long seq, int kind, long size, int type, String text) {}

  static UnwindSection decode(byte[] b, long firstKey) {
    ByteReader r = new ByteReader(b);
    int n = r.readCount();
    Entry[] entries = new Entry[n];
    long prev = firstKey;
    for (int i = 0; i < n; i++) {
      prev += r.readVar();
      long seq = r.readVar();
      int kind = r.readByte();
      switch (kind) {
        case UnwindRecords.CFI_INIT -> {
          long size = r.readVar();
          entries[i] = new Entry(prev, seq, kind, size, 0, text(r));
        }
        case UnwindRecords.CFI_DELTA -> entries[i] = new Entry(prev, seq, kind, 0, 0, text(r));
        case UnwindRecords.WIN -> {
          int type = r.readByte();
          long size = r.readVar();
          entries[i] = new Entry(prev, seq, kind, size, type, text(r));
        }
        case UnwindRecords.PARAM -> entries[i] = new Entry(prev, seq, kind, r.readVar(), 0, null);
        default -> throw new CorruptTableException("unknown unwind record kind " + kind);
      }
    }
    return new UnwindSection(entries);
  }

  private static String text(ByteReader r) {
    return new String(r.readBlob(), StandardCharsets.UTF_8);
  }

  private UnwindSection(Entry[] byAddress) {
    Entry[] byFile = byAddress.clone();
    Arrays.sort(byFile, (x, y) -> Long.compare(x.seq(), y.seq()));
    // INIT: first stored wins; overlapping later ones are dropped (Breakpad's RangeMap)
    List<Entry> inits = new ArrayList<>();
    TreeMap<Long, Long> accepted = new TreeMap<>(Long::compareUnsigned); // high -> start
    for (Entry e : byFile) {
      if (e.kind() == UnwindRecords.CFI_INIT) {
        long high = e.addr() + e.size() - 1;
        if (e.size() == 0 || Unsigned.lt(high, e.addr())) {
          continue;
        }
        // the first accepted range ending at or after this start is the only one that can overlap
        Map.Entry<Long, Long> next = accepted.ceilingEntry(e.addr());
        if (next == null || Unsigned.lt(high, next.getValue())) {
          accepted.put(high, e.addr());
          inits.add(e);
        }
      } else if (e.kind() == UnwindRecords.WIN) {
        StackWinRecord w = new StackWinRecord(e.type(), e.addr(), e.size(), e.text());
        (e.type() == 0 ? winFpo : winFrameData).store(e.addr(), e.size(), w);
      }
    }
    inits.sort((x, y) -> Long.compareUnsigned(x.addr(), y.addr()));
    initStart = new long[inits.size()];
    initHigh = new long[inits.size()];
    initRules = new String[inits.size()];
    for (int i = 0; i < inits.size(); i++) {
      initStart[i] = inits.get(i).addr();
      initHigh[i] = inits.get(i).addr() + inits.get(i).size() - 1;
      initRules[i] = inits.get(i).text();
    }
    // deltas and parameter sizes come by address, file order among equals
    List<Entry> deltas = new ArrayList<>();
    List<Entry> params = new ArrayList<>();
    for (Entry e : byAddress) {
      if (e.kind() == UnwindRecords.CFI_DELTA) {
        if (!deltas.isEmpty() && deltas.get(deltas.size() - 1).addr() == e.addr()) {
          deltas.set(deltas.size() - 1, e); // the last one at an address wins
        } else {
          deltas.add(e);
        }
      } else if (e.kind() == UnwindRecords.PARAM) {
        if (params.isEmpty() || params.get(params.size() - 1).addr() != e.addr()) {
          params.add(e); // the first one at an address wins
        }
      }
    }
    deltaAddr = new long[deltas.size()];
    deltaRules = new String[deltas.size()];
    for (int i = 0; i < deltas.size(); i++) {
      deltaAddr[i] = deltas.get(i).addr();
      deltaRules[i] = deltas.get(i).text();
    }
    paramAddr = new long[params.size()];
    paramSize = new long[params.size()];
    for (int i = 0; i < params.size(); i++) {
      paramAddr[i] = params.get(i).addr();
      paramSize[i] = params.get(i).size();
    }
  }

  /** The INIT rules holding {@code rel} then the deltas in [INIT start, rel]; empty when none. */
  List<String> cfiRuleSets(long rel) {
    int i = Unsigned.floor(initStart, initStart.length, rel);
    if (i < 0 || Unsigned.lt(initHigh[i], rel)) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    out.add(initRules[i]);
    int d = Unsigned.floor(deltaAddr, deltaAddr.length, initStart[i] - 1);
    // first delta at or after the INIT's start
    d = initStart[i] == 0 ? 0 : d + 1;
    for (; d < deltaAddr.length && Unsigned.le(deltaAddr[d], rel); d++) {
      if (Unsigned.le(initStart[i], deltaAddr[d])) {
        out.add(deltaRules[d]);
      }
    }
    return out;
  }

  /** The frame-data record holding {@code rel}, else the FPO one, else null. */
  StackWinRecord stackWin(long rel) {
    StackWinRecord w = winFrameData.find(rel);
    return w != null ? w : winFpo.find(rel);
  }

  /** The parameter size of the FUNC starting at {@code funcStart}; 0 when none was given. */
  long parameterSize(long funcStart) {
    int i = Unsigned.floor(paramAddr, paramAddr.length, funcStart);
    return i >= 0 && paramAddr[i] == funcStart ? paramSize[i] : 0;
  }
}
