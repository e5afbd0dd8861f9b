package io.symbolicate.symbols.dwarf;

import io.symbolicate.symbols.nativecode.SymHandler;
import io.symbolicate.symbols.objects.ObjectSections;
import io.symbolicate.symbols.objects.ObjectSymbol;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Streams the FILE, INLINE_ORIGIN, FUNC, line and INLINE records of a Breakpad symbol file from
 * the DWARF (2 to 5) of an object's sections into a {@link SymHandler}, one compile unit at a
 * time: a unit's DIEs are read from the mapped section into a few int arrays (offset, parent,
 * tag), its functions built and written, and everything dropped before the next unit. What lasts
 * across units: the unit start offsets, the (address, size) pairs of functions written (to drop
 * duplicates as symbolic does), and the file paths and inline origin names given ids.
 *
 * <p>The records are those of Mozilla's {@code dump_syms} (see {@link RecordWriter}); FUNCs come
 * in DWARF order, not sorted.
 *
 * <p>Split DWARF: a skeleton unit (DWARF 5's, or GNU's DWARF 4 compile unit with a DWO id) is
 * walked through its split unit, found in the {@code .dwp} package ({@link #withPackage}) or the
 * {@code .dwo} file a {@link DwoLocator} finds; addresses come from the skeleton's {@code
 * .debug_addr} and line table, call files from the split unit's own file table. A skeleton whose
 * split unit is missing or refused keeps its line table, for the functions of the symbol table
 * ({@link #withSymbols}) inside its ranges, with a note.
 */
public final class DwarfReader {
  /** Deepest inline nesting followed; deeper inlined calls are left out. */
  static final int MAX_INLINE_DEPTH = 128;

  /** Longest DW_AT_specification / DW_AT_abstract_origin chain followed for a name. */
  static final int MAX_REF_CHAIN = 16;

  private final DwarfContext ctx;
  private final DwarfOptions options;
  private Consumer<FunctionBuilder.Node> treeListener = n -> {};
  private ObjectSections dwpSections;
  private String dwpName;
  private DwoLocator dwoLocator = DwoLocator.NONE;
  private Consumer<String> notes = n -> {};
  private List<ObjectSymbol> symbols = List.of();

  /**
   * Demangled names of the last units: the same inlined library functions come back in unit
   * after unit (ceph-osd: 1.75 million inlined ranges of 71,000 names).
   */
  private final Map<String, String> demangled = new HashMap<>();

  /**
   * The names of inlined calls by the .debug_info offset of their abstract origin (main file):
   * an origin's calls, in this unit or the next, all get the name its chain gives.
   */
  private final Map<Long, String> originNames = new HashMap<>();

  /** Names kept in {@link #demangled} and {@link #originNames} at most (then each starts over). */
  private static final int NAMES_KEPT = 1 << 16;

  public DwarfReader(ObjectSections sections, ObjectSections supplementary, DwarfOptions options) {
    this.ctx =
        new DwarfContext(
            new DwarfFile(sections, false),
            supplementary == null ? null : new DwarfFile(supplementary, true));
    this.options = options;
  }

  public DwarfReader(ObjectSections sections, DwarfOptions options) {
    this(sections, null, options);
  }

  /** Split DWARF units are looked up in this {@code .dwp} package first (null: none). */
  public DwarfReader withPackage(ObjectSections dwp, String name) {
    this.dwpSections = dwp;
    this.dwpName = name;
    return this;
  }

  /** Finds the {@code .dwo} files of skeleton units not in the package. */
  public DwarfReader withDwoLocator(DwoLocator locator) {
    this.dwoLocator = locator == null ? DwoLocator.NONE : locator;
    return this;
  }

  /** Receives what was left out and why (a {@code .dwo} missing, a DWO id mismatch). */
  public DwarfReader withNotes(Consumer<String> notes) {
    this.notes = notes;
    return this;
  }

  /**
   * The symbol table's functions (addresses as the file states them): what a skeleton unit
   * without its split unit is written as, with the skeleton's lines.
   */
  public DwarfReader withSymbols(List<ObjectSymbol> functions) {
    List<ObjectSymbol> sorted = new ArrayList<>(functions);
    sorted.sort(Comparator.comparingLong(ObjectSymbol::address));
    this.symbols = sorted;
    return this;
  }

  /** Sees each function's inline tree before its records are written (tests compare it). */
  void treeListener(Consumer<FunctionBuilder.Node> listener) {
    this.treeListener = listener;
  }

  /** Reads every compile unit; throws at the first unit that cannot be read. */
  public void read(SymHandler handler) throws DwarfException {
    RecordWriter writer = new RecordWriter(handler, options.inlines(), options.breakpad());
    LongPairSet seenAddresses = new LongPairSet();
    LongPairSet seenRanges = new LongPairSet();
    SplitUnits splits = new SplitUnits(ctx, dwpSections, dwpName, dwoLocator, notes);
    DwarfFile f = ctx.main;
    long off = 0;
    while (off < f.info.limit()) {
      long end = f.unitEnd(off);
      Unit u = ctx.unit(f, off);
      if (u.unitType == Dw.UT_COMPILE
          || u.unitType == Dw.UT_PARTIAL
          || u.unitType == Dw.UT_SKELETON) {
        if (u.isSkeleton()) {
          readSkeleton(u, splits, writer, seenAddresses, seenRanges);
        } else if (u.rootTag == Dw.TAG_COMPILE_UNIT) {
          new UnitWalker(u, writer, seenAddresses, seenRanges).run();
        }
      }
      off = end;
    }
  }

  private void readSkeleton(
      Unit skeleton,
      SplitUnits splits,
      RecordWriter writer,
      LongPairSet seenAddresses,
      LongPairSet seenRanges)
      throws DwarfException {
    Unit split = splits.find(skeleton);
    if (split != null) {
      UnitWalker w = new UnitWalker(split, writer, seenAddresses, seenRanges);
      try {
        w.run();
        return;
      } catch (DwarfException e) {
        if (w.emitted) {
          throw e;
        }
        notes.accept(
            e.getMessage() + ": split unit of " + skeleton.dwoName + " not used, skeleton only");
      }
    }
    new UnitWalker(skeleton, writer, seenAddresses, seenRanges).runSkeletonOnly(symbols);
  }

  /** The index of the first function at or after {@code address} (sorted by address). */
  static int firstAtOrAfter(List<ObjectSymbol> sorted, long address) {
    int lo = 0;
    int hi = sorted.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted.get(mid).address() < address) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** The names of the DIEs of one unit: offset, parent and tag per DIE, in DIE order. */
  static final class DieIndex {
    int count;
    int[] offset = new int[256];
    int[] parent = new int[256];
    int[] tag = new int[256];

    int add(int off, int par, int t) {
      if (count == offset.length) {
        int n = count * 2;
        offset = Arrays.copyOf(offset, n);
        parent = Arrays.copyOf(parent, n);
        tag = Arrays.copyOf(tag, n);
      }
      offset[count] = off;
      parent[count] = par;
      tag[count] = t;
      return count++;
    }

    int find(long off) {
      int i = Arrays.binarySearch(offset, 0, count, (int) off);
      return i >= 0 ? i : -1;
    }
  }

  /** DIE indexes of units that references point into, least recently used dropped first. */
  private final LinkedHashMap<IndexKey, DieIndex> otherIndexes =
      new LinkedHashMap<>(16, 0.75f, true);

  /** A unit by file and offset: split files all start their units at 0. */
  private record IndexKey(DwarfFile file, long offset) {}

  private long otherIndexDies;

  /** DIEs kept in {@link #otherIndexes} at most (12 bytes each). */
  private static final long OTHER_INDEX_DIES = 4L << 20;

  /** Walks a unit's DIEs (no per-DIE objects) into an index; used for units refs point into. */
  DieIndex index(Unit u) throws DwarfException {
    IndexKey key = new IndexKey(u.file, u.offset);
    DieIndex idx = otherIndexes.get(key);
    if (idx != null) {
      return idx;
    }
    idx = new DieIndex();
    Cursor c = new Cursor(u.file.label("info"), u.file.info).at(u.dieStart, u.end);
    Die d = new Die();
    int[] stack = new int[64];
    int depth = 0;
    stack[0] = -1;
    while (!c.atEnd()) {
      ctx.readDie(u, c, d);
      if (d.tag == 0) {
        if (--depth < 0) {
          break;
        }
        continue;
      }
      int i = idx.add((int) d.offset, stack[depth], d.tag);
      if (d.children) {
        if (++depth == stack.length) {
          stack = Arrays.copyOf(stack, depth * 2);
        }
        stack[depth] = i;
      } else if (depth == 0) {
        break;
      }
    }
    otherIndexes.put(key, idx);
    otherIndexDies += idx.count;
    var it = otherIndexes.entrySet().iterator();
    while (otherIndexDies > OTHER_INDEX_DIES && otherIndexes.size() > 1 && it.hasNext()) {
      otherIndexDies -= it.next().getValue().count;
      it.remove();
    }
    return idx;
  }

  /** One unit: its DIE walk, functions and their inlinees, then their records. */
  private final class UnitWalker {
    private final Unit u;
    private final RecordWriter writer;
    private final LongPairSet seenAddresses;
    private final LongPairSet seenRanges;
    private final DieIndex index = new DieIndex();
    private LineTable lines;
    private String[] paths;

    /** The file table call files index: the split unit's own, else the same as lines'. */
    private LineTable callLines;

    private String[] callPaths;

    /** Whether records were written (a failure after it cannot fall back). */
    boolean emitted;

    // functions: die index, ranges [rangeFirst, rangeFirst + rangeLongs)
    private int fnCount;
    private int[] fnDie = new int[16];
    private int[] fnRangeFirst = new int[16];
    private int[] fnRangeLongs = new int[16];
    private int[] doneOrder = new int[16];
    private int doneCount;
    private int[] fnFirstIn = new int[16]; // the function's inlinees as a linked list
    private int[] fnLastIn = new int[16];

    // inlinees: function, depth, die index, ranges, call file, call line
    private int inCount;
    private int[] inDepth = new int[16];
    private int[] inDie = new int[16];
    private int[] inRangeFirst = new int[16];
    private int[] inRangeLongs = new int[16];
    private long[] inCallFile = new long[16];
    private long[] inCallLine = new long[16];
    private int[] inNext = new int[16];
    private long[] inOrigin = new long[16]; // the abstract origin naming it, or -1

    private final long[][] pool = {new long[64]};
    private int poolLen;

    /** The inlined calls' names by DIE index: many calls share one abstract origin. */
    private String[] inlineNames;

    UnitWalker(Unit u, RecordWriter writer, LongPairSet seenAddresses, LongPairSet seenRanges) {
      this.u = u;
      this.writer = writer;
      this.seenAddresses = seenAddresses;
      this.seenRanges = seenRanges;
    }

    void run() throws DwarfException {
      // symbolic skips a unit the linker dropped: low_pc 0 and no ranges
      if (u.lowPc == 0 && !u.hasRanges) {
        return;
      }
      walk();
      readLines();
      for (int i = 0; i < doneCount; i++) {
        emit(doneOrder[i]);
      }
    }

    private void readLines() throws DwarfException {
      Unit lineUnit = u.skeleton != null ? u.skeleton : u;
      if (lineUnit.stmtList >= 0) {
        lines = LineTable.read(ctx, lineUnit, lineUnit.stmtList, u.compDir);
        paths = new String[lines.fileNames.size()];
      }
      callLines = lines;
      callPaths = paths;
      if (u.skeleton != null && u.file.line.limit() > 0) {
        // a split unit's DW_AT_call_file indexes the file table of its .debug_line.dwo
        LineTable own = LineTable.read(ctx, u, u.stmtList >= 0 ? u.stmtList : 0, u.compDir);
        if (!own.fileNames.isEmpty()) {
          callLines = own;
          callPaths = new String[own.fileNames.size()];
        }
      }
    }

    /**
     * A skeleton without its split unit: the symbol table's functions inside the skeleton's
     * ranges, with the skeleton's lines (no inlines: those are in the missing unit).
     */
    void runSkeletonOnly(List<ObjectSymbol> functions) throws DwarfException {
      if ((u.lowPc == 0 && !u.hasRanges) || functions.isEmpty()) {
        return;
      }
      Cursor c = new Cursor(u.file.label("info"), u.file.info).at(u.dieStart, u.end);
      Die root = new Die();
      ctx.readDie(u, c, root);
      int n = ctx.ranges(u, root, pool, 0);
      readLines();
      long bias = options.loadAddress();
      long[] p = pool[0];
      int[] rows = new int[2];
      for (int i = 0; i < n; i += 2) {
        long b = p[i];
        long e = p[i + 1];
        int k = firstAtOrAfter(functions, b);
        for (; k < functions.size() && functions.get(k).address() < e; k++) {
          ObjectSymbol s = functions.get(k);
          long size = s.size() > 0 ? Math.min(s.size(), e - s.address()) : 0;
          if (size <= 0 || !seenRanges.add(s.address(), s.address() + size)) {
            continue;
          }
          FunctionBuilder fb = new FunctionBuilder(s.address() - bias, size);
          if (lines != null) {
            lines.rowsFor(s.address(), s.address() + size, rows);
            for (int r = rows[0]; r < rows[1]; r++) {
              fb.addLeafLine(
                  lines.address[r] - bias, lines.size[r], path(lines.file[r]), lines.line[r]);
            }
          }
          if (fb.address == 0 || !seenAddresses.add(fb.address, 1)) {
            continue;
          }
          String name = options.demangler() == null ? s.name() : demangle(s.name());
          emitted = true;
          writer.write(fb.finish(name));
        }
      }
    }

    private void walk() throws DwarfException {
      Cursor c = new Cursor(u.file.label("info"), u.file.info).at(u.dieStart, u.end);
      Die d = new Die();
      int cap = 64;
      int[] parent = new int[cap];
      int[] ctxFn = new int[cap];
      int[] ctxDepth = new int[cap];
      int[] closesFn = new int[cap];
      int depth = 0;
      parent[0] = -1;
      ctxFn[0] = -1;
      ctxDepth[0] = 0;
      closesFn[0] = -1;
      while (!c.atEnd()) {
        ctx.readDie(u, c, d);
        if (d.tag == 0) {
          if (depth == 0) {
            break;
          }
          if (closesFn[depth] >= 0) {
            done(closesFn[depth]);
          }
          depth--;
          continue;
        }
        int self = index.add((int) d.offset, parent[depth], d.tag);
        int childFn = ctxFn[depth];
        int childDepth = ctxDepth[depth];
        int opened = -1;
        if (d.tag == Dw.TAG_SUBPROGRAM) {
          int first = poolLen;
          int n = ctx.ranges(u, d, pool, poolLen) - poolLen;
          n = dropSeen(first, n);
          if (n == 0) {
            childFn = -1;
          } else {
            opened = addFunction(self, first, n);
            childFn = opened;
            childDepth = 0;
          }
        } else if (d.tag == Dw.TAG_INLINED_SUBROUTINE && childFn >= 0) {
          int first = poolLen;
          int n = ctx.ranges(u, d, pool, poolLen) - poolLen;
          if (n == 0 || childDepth > MAX_INLINE_DEPTH) {
            poolLen = first;
            childFn = -1;
          } else {
            poolLen = first + n;
            addInlinee(childFn, childDepth, self, first, n, d);
            childDepth++;
          }
        }
        if (d.children) {
          if (++depth == cap) {
            cap *= 2;
            parent = Arrays.copyOf(parent, cap);
            ctxFn = Arrays.copyOf(ctxFn, cap);
            ctxDepth = Arrays.copyOf(ctxDepth, cap);
            closesFn = Arrays.copyOf(closesFn, cap);
          }
          parent[depth] = self;
          ctxFn[depth] = childFn;
          ctxDepth[depth] = childDepth;
          closesFn[depth] = opened;
        } else {
          if (opened >= 0) {
            done(opened);
          }
          if (depth == 0) {
            break;
          }
        }
      }
    }

    /** symbolic keeps the first function of each (address, size). */
    private int dropSeen(int first, int n) {
      long[] p = pool[0];
      int kept = 0;
      for (int i = 0; i < n; i += 2) {
        long b = p[first + i];
        long e = p[first + i + 1];
        if (seenRanges.add(b, e)) {
          p[first + kept] = b;
          p[first + kept + 1] = e;
          kept += 2;
        }
      }
      poolLen = first + kept;
      return kept;
    }

    private int addFunction(int die, int first, int n) {
      if (fnCount == fnDie.length) {
        int m = fnCount * 2;
        fnDie = Arrays.copyOf(fnDie, m);
        fnRangeFirst = Arrays.copyOf(fnRangeFirst, m);
        fnRangeLongs = Arrays.copyOf(fnRangeLongs, m);
        doneOrder = Arrays.copyOf(doneOrder, m);
        fnFirstIn = Arrays.copyOf(fnFirstIn, m);
        fnLastIn = Arrays.copyOf(fnLastIn, m);
      }
      fnFirstIn[fnCount] = -1;
      fnLastIn[fnCount] = -1;
      fnDie[fnCount] = die;
      fnRangeFirst[fnCount] = first;
      fnRangeLongs[fnCount] = n;
      return fnCount++;
    }

    private void done(int fn) {
      doneOrder[doneCount++] = fn;
    }

    private void addInlinee(int fn, int depth, int die, int first, int n, Die d) {
      if (inCount == inDepth.length) {
        int m = inCount * 2;
        inDepth = Arrays.copyOf(inDepth, m);
        inDie = Arrays.copyOf(inDie, m);
        inRangeFirst = Arrays.copyOf(inRangeFirst, m);
        inRangeLongs = Arrays.copyOf(inRangeLongs, m);
        inCallFile = Arrays.copyOf(inCallFile, m);
        inCallLine = Arrays.copyOf(inCallLine, m);
        inNext = Arrays.copyOf(inNext, m);
        inOrigin = Arrays.copyOf(inOrigin, m);
      }
      inNext[inCount] = -1;
      if (fnLastIn[fn] < 0) {
        fnFirstIn[fn] = inCount;
      } else {
        inNext[fnLastIn[fn]] = inCount;
      }
      fnLastIn[fn] = inCount;
      inDepth[inCount] = depth;
      inDie[inCount] = die;
      inRangeFirst[inCount] = first;
      inRangeLongs[inCount] = n;
      inCallFile[inCount] = d.callFile.isConstant() ? d.callFile.value : -1;
      inCallLine[inCount] = d.callLine.isConstant() ? d.callLine.value : 0;
      // a call without a name of its own is named by its origin, shared by the origin's calls
      inOrigin[inCount] =
          u.file == ctx.main
                  && !d.name.present()
                  && !d.linkage.present()
                  && d.ref.kind == AttrValue.REF
              ? d.ref.value
              : -1;
      inCount++;
    }

    private String path(long fileIndex) {
      return path(lines, paths, fileIndex);
    }

    private String callPath(long fileIndex) {
      return path(callLines, callPaths, fileIndex);
    }

    private String path(LineTable table, String[] cache, long fileIndex) {
      int slot = table == null || fileIndex < 0 ? -1 : table.fileSlot(fileIndex);
      if (slot < 0) {
        return Paths.join(u.compDir, "", "");
      }
      String p = cache[slot];
      if (p == null) {
        p = Paths.join(u.compDir, table.fileDirs.get(slot), table.fileNames.get(slot));
        cache[slot] = p;
      }
      return p;
    }

    private void emit(int fn) throws DwarfException {
      long[] p = pool[0];
      int first = fnRangeFirst[fn];
      int n = fnRangeLongs[fn];
      long minBegin = Long.MAX_VALUE;
      for (int i = 0; i < n; i += 2) {
        minBegin = Math.min(minBegin, p[first + i]);
      }
      String name = functionName(fnDie[fn], minBegin);
      long bias = options.loadAddress();
      FunctionBuilder[] builders = new FunctionBuilder[n / 2];
      for (int i = 0; i < n; i += 2) {
        builders[i / 2] = new FunctionBuilder(p[first + i] - bias, p[first + i + 1] - p[first + i]);
      }
      if (inlineNames == null || inlineNames.length < index.count) {
        inlineNames = new String[index.count];
      }
      for (int k = fnFirstIn[fn]; k >= 0; k = inNext[k]) {
        String inName = inOrigin[k] >= 0 ? originNames.get(inOrigin[k]) : inlineNames[inDie[k]];
        if (inName == null) {
          inName = inlineName(inDie[k]);
          if (inOrigin[k] >= 0) {
            if (originNames.size() >= NAMES_KEPT) {
              originNames.clear();
            }
            originNames.put(inOrigin[k], inName);
          } else {
            inlineNames[inDie[k]] = inName;
          }
        }
        String callPath = inCallFile[k] < 0 ? Paths.join(null, "", "") : callPath(inCallFile[k]);
        for (int j = 0; j < inRangeLongs[k]; j += 2) {
          long b = p[inRangeFirst[k] + j] - bias;
          long e = p[inRangeFirst[k] + j + 1] - bias;
          for (FunctionBuilder fb : builders) {
            if (b >= fb.address && b < fb.address + fb.size) {
              fb.addInlinee(inDepth[k], b, e - b, inName, callPath, inCallLine[k]);
              break;
            }
          }
        }
      }
      int[] rows = new int[2];
      for (FunctionBuilder fb : builders) {
        if (lines != null) {
          lines.rowsFor(fb.address + bias, fb.address + bias + fb.size, rows);
          for (int r = rows[0]; r < rows[1]; r++) {
            fb.addLeafLine(
                lines.address[r] - bias, lines.size[r], path(lines.file[r]), lines.line[r]);
          }
        }
        if (fb.address == 0) {
          continue;
        }
        if (!seenAddresses.add(fb.address, 1)) {
          writer.duplicate(fb.address, fb.size, name);
          continue;
        }
        FunctionBuilder.Node tree = fb.finish(name);
        treeListener.accept(tree);
        emitted = true;
        writer.write(tree);
      }
    }

    // ---- names ----

    private String functionName(int die, long address) throws DwarfException {
      String sym = options.symbolNames() == null ? null : options.symbolNames().apply(address);
      Names names = resolve(u, index.offset[die]);
      if (options.breakpad()) {
        return breakpadName(names);
      }
      if (options.demangler() != null) {
        String candidate = sym != null ? sym : names.mozilla;
        if (candidate == null) {
          return "";
        }
        return sym != null || names.mangled ? demangle(candidate) : candidate;
      }
      if (names.qualified != null) {
        return names.qualified;
      }
      if (sym != null) {
        return sym;
      }
      return names.mozilla == null ? "" : names.mozilla;
    }

    private String inlineName(int die) throws DwarfException {
      Names names = resolve(u, index.offset[die]);
      if (options.breakpad()) {
        return breakpadName(names);
      }
      if (options.demangler() != null) {
        if (names.mozilla == null) {
          return "";
        }
        return names.mangled ? demangle(names.mozilla) : names.mozilla;
      }
      return names.qualified != null ? names.qualified : names.mozilla == null ? "" : names.mozilla;
    }

    /** Breakpad's name: the demangled linkage name, else the qualified DWARF name. */
    private String breakpadName(Names names) {
      if (names.mangled && options.demangler() != null) {
        return demangle(names.mozilla);
      }
      if (names.qualified != null) {
        return names.qualified;
      }
      return names.mozilla == null ? "" : names.mozilla;
    }

    private String demangle(String mangled) {
      String fixed = Names.fixSymbolName(mangled);
      if (Dw.isC(u.language)) {
        return fixed;
      }
      String d = demangled.get(fixed);
      if (d == null) {
        d = options.demangler().apply(fixed);
        if (d == null) {
          d = fixed;
        }
        if (demangled.size() >= NAMES_KEPT) {
          demangled.clear();
        }
        demangled.put(fixed, d);
      }
      return d;
    }

    /**
     * symbolic's name of a DIE (the first linkage name or name along its specification /
     * abstract-origin chain) and the qualified name of the first DIE with a DW_AT_name on it.
     */
    private Names resolve(Unit start, long offset) throws DwarfException {
      Names out = new Names();
      Die d = new Die();
      Unit cur = start;
      long off = offset;
      long[] target = new long[1];
      Set<Long> visited = new HashSet<>();
      // the qualified name is only shown by Breakpad's dialect or without a demangler
      boolean wantQualified = options.breakpad() || options.demangler() == null;
      for (int hop = 0; hop < MAX_REF_CHAIN && cur != null; hop++) {
        if (!visited.add(off)) {
          break; // a reference cycle
        }
        Cursor c = new Cursor(cur.file.label("info"), cur.file.info).at(off, cur.end);
        ctx.readDie(cur, c, d);
        if (d.tag == 0) {
          break;
        }
        if (out.mozilla == null) {
          if (d.linkage.present()) {
            out.mozilla = ctx.stringValue(cur, d.linkage);
            out.mangled = out.mozilla != null;
          } else if (d.name.present()) {
            out.mozilla = ctx.stringValue(cur, d.name);
          }
        }
        if (wantQualified && out.qualified == null && d.name.present()) {
          String n = ctx.stringValue(cur, d.name);
          if (n != null) {
            out.qualified = qualify(cur, off, n);
          }
        }
        if ((out.qualified != null || !wantQualified) && out.mozilla != null) {
          break;
        }
        if (!d.ref.isRef()) {
          break;
        }
        cur = ctx.refTarget(cur, d.ref, target);
        off = target[0];
      }
      return out;
    }

    private String qualify(Unit unit, long offset, String name) throws DwarfException {
      DieIndex idx = unit.file == u.file && unit.offset == u.offset ? index : index(unit);
      int i = idx.find(offset);
      if (i < 0) {
        return name;
      }
      StringBuilder sb = null;
      Die d = new Die();
      int steps = 0;
      for (int p = idx.parent[i]; p >= 0 && steps < 64; p = idx.parent[p], steps++) {
        int tag = idx.tag[p];
        String scope;
        if (tag == Dw.TAG_NAMESPACE
            || tag == Dw.TAG_CLASS_TYPE
            || tag == Dw.TAG_STRUCTURE_TYPE
            || tag == Dw.TAG_UNION_TYPE
            || tag == Dw.TAG_ENUMERATION_TYPE
            || tag == Dw.TAG_INTERFACE_TYPE) {
          Cursor c =
              new Cursor(unit.file.label("info"), unit.file.info).at(idx.offset[p], unit.end);
          ctx.readDie(unit, c, d);
          String s = d.name.present() ? ctx.stringValue(unit, d.name) : null;
          if (s == null) {
            if (tag != Dw.TAG_NAMESPACE || options.breakpad()) {
              continue; // Breakpad leaves anonymous namespaces out of qualified names
            }
            s = "(anonymous namespace)";
          }
          scope = s;
        } else if (tag == Dw.TAG_COMPILE_UNIT || tag == Dw.TAG_PARTIAL_UNIT) {
          break;
        } else {
          continue;
        }
        if (sb == null) {
          sb = new StringBuilder(name);
        }
        sb.insert(0, "::").insert(0, scope);
      }
      return sb == null ? name : sb.toString();
    }
  }

  /** What a DIE's name chain gives. */
  static final class Names {
    String mozilla;
    boolean mangled;
    String qualified;

    /** Mozilla's fix_symbol_name: compiler suffixes (.cold, .isra.0, [clone ...]) removed. */
    static String fixSymbolName(String s) {
      String fixed = CompilerSuffix.strip(s);
      return fixed.replace("`anonymous namespace'", "(anonymous namespace)");
    }
  }
}
