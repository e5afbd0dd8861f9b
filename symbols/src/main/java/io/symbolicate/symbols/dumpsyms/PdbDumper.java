package io.symbolicate.symbols.dumpsyms;

import io.symbolicate.symbols.cfi.DwarfCfiReader;
import io.symbolicate.symbols.cfi.PeUnwindReader;
import io.symbolicate.symbols.demangle.MsvcDemangler;
import io.symbolicate.symbols.nativecode.SymHandler;
import io.symbolicate.symbols.objects.ObjectFormatException;
import io.symbolicate.symbols.objects.ObjectIdentity;
import io.symbolicate.symbols.objects.PdbIdentity;
import io.symbolicate.symbols.objects.PeCodeView;
import io.symbolicate.symbols.objects.PeFile;
import io.symbolicate.symbols.pdb.PdbFile;
import io.symbolicate.symbols.pdb.PdbFileNames;
import io.symbolicate.symbols.pdb.PdbFormatException;
import io.symbolicate.symbols.pdb.PdbFrame;
import io.symbolicate.symbols.pdb.PdbFrameData;
import io.symbolicate.symbols.pdb.PdbInlines;
import io.symbolicate.symbols.pdb.PdbLineRows;
import io.symbolicate.symbols.pdb.PdbLines;
import io.symbolicate.symbols.pdb.PdbModule;
import io.symbolicate.symbols.pdb.PdbOmap;
import io.symbolicate.symbols.pdb.PdbProcedure;
import io.symbolicate.symbols.pdb.PdbPublic;
import io.symbolicate.symbols.pdb.PdbSignatures;
import io.symbolicate.symbols.pdb.PdbSymbols;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The records of a {@code .sym} from a PDB, as Breakpad's {@code dump_syms.exe} writes them:
 * MODULE windows (the PDB's arch, GUID and DBI age, its file name), INFO CODE_ID when the image
 * is given or lies beside the PDB with the same debug id, FILE, FUNC (procedures of every
 * module) with their C13 line rows, PUBLIC (code publics; C++ names demangled the way Breakpad
 * writes them), STACK WIN (x86 frame data), all mapped through OMAP when the image was
 * rewritten, and STACK CFI from the image's {@code .pdata} when the image is there (x64 and
 * arm64, as Mozilla's dump_syms writes them; {@code cfi.PeUnwindReader}); with inlines,
 * INLINE_ORIGIN and INLINE records as Mozilla's dump_syms writes them. FUNC names carry their
 * argument lists as DIA gives them ({@link #name}), inlinee names as symbolic prints them.
 */
public final class PdbDumper {
  private PdbDumper() {}

  static DumpSyms.Report dump(Path file, DumpSyms.Options options, SymHandler out)
      throws IOException, DumpSymsException {
    List<String> notes = new ArrayList<>();
    PdbFile pdb = PdbFile.open(file);
    ObjectIdentity id = PdbIdentity.of(pdb);
    Path image = options.debugFile() != null ? options.debugFile() : besideImage(file, id, notes);
    PeFile pe = null;
    if (image != null) {
      pe = PeFile.open(image);
      PeCodeView cv = pe.codeView().orElse(null);
      if (cv == null || !cv.debugId().equals(id.debugId())) {
        throw new DumpSymsException(
            image
                + ": its debug id "
                + (cv == null ? "(none)" : cv.debugId())
                + " is not the PDB's "
                + id.debugId());
      }
    }
    out.module("windows", id.arch(), id.debugId(), file.getFileName().toString());
    if (pe != null) {
      out.codeId(pe.breakpadCodeId(), image.getFileName().toString());
    }
    notes.addAll(records(pdb, out, options.inlines()));
    // STACK CFI from the image's .pdata (x64, arm64), as Mozilla's dump_syms writes it
    DwarfCfiReader.Summary unwind = pe == null ? null : PeUnwindReader.read(pe, out);
    return new DumpSyms.Report(id, file, null, unwind, notes);
  }

  /**
   * The records after MODULE and INFO of a PDB already open (FILE, FUNC, lines, PUBLIC, STACK
   * WIN) into {@code out}; returns notes on what was skipped. Throws {@link PdbFormatException}
   * when a stream every record needs is damaged; a damaged module is skipped with a note.
   */
  public static List<String> records(PdbFile pdb, SymHandler out) {
    return records(pdb, out, false);
  }

  /**
   * As {@link #records(PdbFile, SymHandler)}; with {@code inlines}, also INLINE_ORIGIN and
   * INLINE records from the inline sites, and line records of the innermost inlined function at
   * each address, as Mozilla's dump_syms writes them for DWARF.
   */
  public static List<String> records(PdbFile pdb, SymHandler out, boolean withInlines) {
    boolean inlines = withInlines;
    List<String> notes = new ArrayList<>();
    ObjectIdentity id = PdbIdentity.of(pdb);
    ByteBuffer names = PdbLines.stringTable(pdb);
    PdbFileNames fileNames = new PdbFileNames();
    // every procedure with its module's lines (by RVA) and inline sites (by procedure)
    TreeMap<Long, List<Proc>> procs = new TreeMap<>();
    PdbInlines.Exports exports = new PdbInlines.Exports(pdb, names);
    for (PdbModule m : pdb.modules()) {
      ModuleRows own = new ModuleRows();
      ByteBuffer b = null; // the module's stream, read once for its procedures, lines and sites
      PdbFormatException unreadable = null;
      try {
        b = PdbSymbols.moduleStream(pdb, m);
      } catch (PdbFormatException e) {
        unreadable = e;
      }
      try {
        if (unreadable != null) {
          throw unreadable;
        }
        for (PdbProcedure p : PdbSymbols.procedures(pdb, m, b)) {
          procs.computeIfAbsent(p.rva(), k -> new ArrayList<>()).add(new Proc(p, own));
        }
        PdbLines.read(pdb, m, b, names, fileNames, own.lines());
      } catch (PdbFormatException e) {
        own.lines().clear();
        notes.add("module " + m.name() + " skipped: " + e.getMessage());
      }
      own.lines().sortByRva(0);
      if (inlines) {
        try {
          if (unreadable != null) {
            throw unreadable;
          }
          PdbInlines.read(pdb, m, b, names, exports, fileNames, own.sites());
        } catch (PdbFormatException e) {
          own.sites().clear();
          notes.add("inlines of module " + m.name() + " skipped: " + e.getMessage());
        }
        own.indexSites();
      }
    }
    Map<Long, List<String>> publicsAt = new HashMap<>();
    List<PdbPublic> publics = PdbSymbols.publics(pdb);
    for (PdbPublic p : publics) {
      publicsAt.computeIfAbsent(p.rva(), k -> new ArrayList<>(1)).add(p.name());
    }
    PdbSignatures signatures = null;
    try {
      signatures = PdbSignatures.of(pdb);
    } catch (PdbFormatException e) {
      notes.add("argument lists left out: " + e.getMessage());
    }
    List<String> unformatted = new ArrayList<>();
    // functions folded into one (identical COMDATs): the smallest name answers, as in
    // Breakpad's output, marked m; its lines are its own module's
    List<Proc> chosen = new ArrayList<>();
    for (List<Proc> at : procs.values()) {
      Proc c = at.stream().min(Comparator.comparing(x -> x.proc().name())).orElseThrow();
      chosen.add(new Proc(c.proc(), c.module(), at.size() > 1));
    }
    PdbOmap omap = PdbOmap.of(pdb);
    if (inlines && !omap.isIdentity()) {
      inlines = false; // not mapped through OMAP yet
      notes.add("inlines left out: the image was rewritten (OMAP)");
    }
    if (inlines && signatures == null) {
      inlines = false;
      notes.add("inlines left out: the type streams are damaged");
    }
    // (a HashMap: its order is the order the files of inlined functions get their ids in)
    Map<Long, InlineFunction> inlined = new HashMap<>();
    InlineFunction.Store store = new InlineFunction.Store(fileNames);
    FileIds fileIds = new FileIds(fileNames.count());
    if (inlines) {
      PdbSignatures ids = signatures;
      Map<String, Integer> origins = new LinkedHashMap<>();
      // about one line record per row read (the innermost rows split some, join others)
      Set<ModuleRows> modules = Collections.newSetFromMap(new IdentityHashMap<>());
      long rows = 0;
      long sites = 0;
      for (Proc c : chosen) {
        if (modules.add(c.module())) {
          rows += c.module().lines().count() + c.module().sites().rows().count();
          sites += c.module().sites().count();
        }
      }
      store.expect(rows + rows / 4, sites);
      for (Proc c : chosen) {
        long rva = c.proc().rva();
        int from = c.module().sitesFrom(rva);
        int to = c.module().sitesTo(rva);
        if (to > from && !c.multiple() && c.proc().size() > 0) {
          inlined.put(rva, InlineFunction.of(c, from, to, ids, origins, store));
        }
      }
      for (Map.Entry<String, Integer> o : origins.entrySet()) {
        byte[] b = o.getKey().getBytes(StandardCharsets.UTF_8);
        out.inlineOrigin(o.getValue(), b, 0, b.length);
      }
      for (InlineFunction f : inlined.values()) {
        f.addFiles(fileIds);
      }
    }
    for (Proc c : chosen) {
      PdbLineRows rows = c.module().lines();
      long end = c.proc().rva() + c.proc().size();
      for (int i = rows.firstAtOrAfter(c.proc().rva()), to = rows.firstAtOrAfter(end);
          i < to;
          i++) {
        fileIds.add(rows.file(i));
      }
    }
    for (int f = 0; f < fileIds.count(); f++) {
      byte[] b = fileNames.name(fileIds.name(f)).getBytes(StandardCharsets.UTF_8);
      out.file(f, b, 0, b.length);
    }
    for (Proc c : chosen) {
      PdbProcedure p = c.proc();
      if (p.size() == 0) {
        continue; // Breakpad leaves zero-length functions out
      }
      Named named = name(p, publicsAt.get(p.rva()), signatures, id.arch(), unformatted);
      byte[] b = named.name().getBytes(StandardCharsets.UTF_8);
      // a reordered image splits a function into pieces: a FUNC each, the lines after the last
      for (long[] piece : omap.map(p.rva(), p.size())) {
        if (named.parameterSize() != 0) {
          out.funcParameterSize(piece[0], named.parameterSize());
        }
        out.func(c.multiple(), piece[0], piece[1], b, 0, b.length);
      }
      InlineFunction f = inlined.get(p.rva());
      if (f != null) {
        f.write(out, fileIds);
        continue;
      }
      long end = p.rva() + p.size();
      boolean identity = omap.isIdentity(); // no range list per row then
      PdbLineRows rows = c.module().lines();
      for (int i = rows.firstAtOrAfter(p.rva()), to = rows.firstAtOrAfter(end); i < to; i++) {
        long rva = rows.rva(i);
        long size = Math.min(rows.length(i), end - rva);
        int line = rows.line(i);
        int file = fileIds.id(rows.file(i));
        if (identity) {
          out.line(rva, size, line, file);
          continue;
        }
        for (long[] piece : omap.map(rva, size)) {
          out.line(piece[0], piece[1], line, file);
        }
      }
    }
    // publics in code (Breakpad lists assembly labels without flags too), the smallest
    // name where several share an address
    TreeMap<Long, String> code = new TreeMap<>();
    Map<Long, Integer> count = new HashMap<>();
    TreeMap<Long, Boolean> allPublics = new TreeMap<>();
    for (PdbPublic p : publics) {
      allPublics.put(p.rva(), Boolean.TRUE);
      if ((p.code() || p.function() || pdb.isCode(p.rva())) && !procs.containsKey(p.rva())) {
        code.merge(p.rva(), p.name(), (x, y) -> x.compareTo(y) <= 0 ? x : y);
        count.merge(p.rva(), 1, Integer::sum);
      }
    }
    for (Map.Entry<Long, String> p : code.entrySet()) {
      byte[] b = undecorateC(p.getValue(), id.arch()).getBytes(StandardCharsets.UTF_8);
      // Breakpad's PUBLIC records keep a fastcall decoration's whole size (basic32-min.sym)
      long param = p.getValue().startsWith("?") ? -1 : decoratedParameterSize(p.getValue(), false);
      long rva = p.getKey();
      for (long[] piece : omap.map(rva, 1)) {
        if (param > 0) {
          out.publicParameterSize(piece[0], param);
        }
        out.publicSymbol(count.get(rva) > 1, piece[0], b, 0, b.length);
      }
      // a public split by OMAP: its later blocks, up to the next public (Breakpad's walk)
      Long nextPublic = allPublics.higherKey(rva);
      for (long at = omap.nextBlock(rva);
          at >= 0 && (nextPublic == null || at < nextPublic);
          at = omap.nextBlock(at)) {
        for (long[] piece : omap.map(at, 1)) {
          out.publicSymbol(false, piece[0], b, 0, b.length);
        }
      }
    }
    try {
      stackWin(PdbFrameData.read(pdb), omap, out);
    } catch (PdbFormatException e) {
      notes.add("frame data skipped: " + e.getMessage());
    }
    if (!unformatted.isEmpty()) {
      notes.add(
          unformatted.size()
              + " FUNC names without argument list, their types refused; the first: "
              + unformatted.get(0));
    }
    return notes;
  }

  /**
   * {@code STACK WIN} records of the frame data, as Breakpad writes them: a record repeating the
   * previous one's type, address, code size and prolog size is left out; through OMAP the
   * prolog and the rest of the code are mapped apart, written as one record where they stay
   * adjacent, else a record for each piece (the prolog's with its length as prolog size, the
   * code's with prolog 0).
   */
  static void stackWin(List<PdbFrame> frames, PdbOmap omap, SymHandler out) {
    PdbFrame last = null;
    for (PdbFrame f : frames) {
      if (last != null
          && last.type() == f.type()
          && last.rva() == f.rva()
          && last.codeSize() == f.codeSize()
          && last.prologSize() == f.prologSize()) {
        continue;
      }
      last = f;
      long prolog = Math.min(f.prologSize(), f.codeSize());
      List<long[]> prologs = prolog > 0 ? omap.map(f.rva(), prolog) : List.of();
      List<long[]> codes = omap.map(f.rva() + prolog, f.codeSize() - prolog);
      List<long[]> pieces = new ArrayList<>(); // {rva, size, prolog}
      if (prologs.size() == 1
          && codes.size() == 1
          && prologs.get(0)[0] + prologs.get(0)[1] == codes.get(0)[0]) {
        long[] pr = prologs.get(0);
        pieces.add(new long[] {pr[0], pr[1] + codes.get(0)[1], pr[1]});
      } else {
        for (long[] pr : prologs) {
          pieces.add(new long[] {pr[0], pr[1], pr[1]});
        }
        for (long[] c : codes) {
          pieces.add(new long[] {c[0], c[1], 0});
        }
      }
      String tail =
          " 0 "
              + Long.toHexString(f.parameterSize())
              + " "
              + Long.toHexString(f.savedRegisterSize())
              + " "
              + Long.toHexString(f.localSize())
              + " "
              + Long.toHexString(f.maxStackSize())
              + (f.program() != null
                  ? " 1 " + f.program()
                  : f.allocatesBasePointer() ? " 0 1" : " 0 0");
      for (long[] piece : pieces) {
        byte[] b = (Long.toHexString(piece[2]) + tail).getBytes(StandardCharsets.UTF_8);
        out.stackWin(f.type(), piece[0], piece[1], b, 0, b.length);
      }
    }
  }

  /**
   * A module's line rows sorted by address (rows at one address in the order read) and its
   * inline sites, with the sites of each procedure found by its address.
   */
  static final class ModuleRows {
    private final PdbLineRows lines = new PdbLineRows();
    private final PdbInlines.Sites sites = new PdbInlines.Sites();
    private long[] siteRvas = new long[0]; // sorted, stably: sites of one procedure in order
    private int[] siteOrder = new int[0];

    PdbLineRows lines() {
      return lines;
    }

    PdbInlines.Sites sites() {
      return sites;
    }

    /** Orders the sites read by their procedure's address (stable; mostly in order already). */
    void indexSites() {
      int n = sites.count();
      siteRvas = new long[n];
      siteOrder = new int[n];
      boolean sorted = true;
      for (int i = 0; i < n; i++) {
        siteOrder[i] = i;
        siteRvas[i] = sites.procedureRva(i);
        sorted &= i == 0 || siteRvas[i - 1] <= siteRvas[i];
      }
      if (!sorted) {
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
          order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingLong(sites::procedureRva));
        for (int i = 0; i < n; i++) {
          siteOrder[i] = order[i];
          siteRvas[i] = sites.procedureRva(order[i]);
        }
      }
    }

    /** The sites of the procedure at {@code rva} are {@code site(k)} for k in [from, to). */
    int sitesFrom(long rva) {
      return firstAtOrAfter(siteRvas, rva);
    }

    int sitesTo(long rva) {
      return rva == Long.MAX_VALUE ? siteRvas.length : firstAtOrAfter(siteRvas, rva + 1);
    }

    int site(int k) {
      return siteOrder[k];
    }

    private static int firstAtOrAfter(long[] sorted, long rva) {
      int lo = 0;
      int hi = sorted.length;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (sorted[mid] < rva) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      return lo;
    }
  }

  /** FILE ids given in the order files are first named, by name index. */
  static final class FileIds {
    private final int[] idOf;
    private final int[] names;
    private int count;

    FileIds(int names) {
      this.idOf = new int[names];
      this.names = new int[names];
      Arrays.fill(idOf, -1);
    }

    void add(int name) {
      if (idOf[name] < 0) {
        idOf[name] = count;
        names[count++] = name;
      }
    }

    int id(int name) {
      return idOf[name];
    }

    int name(int id) {
      return names[id];
    }

    int count() {
      return count;
    }
  }

  /**
   * A procedure, its module's lines and inline sites, and whether other procedures share its
   * address.
   */
  record Proc(PdbProcedure proc, ModuleRows module, boolean multiple) {
    Proc(PdbProcedure proc, ModuleRows module) {
      this(proc, module, false);
    }
  }

  /** A FUNC's name and the size of its parameters on the stack. */
  record Named(String name, long parameterSize) {}

  /**
   * A procedure's name as DIA gives Breakpad's {@code dump_syms.exe}: a global procedure is
   * named by its public symbol, undecorated (C++: Breakpad's undecoration flags, with the
   * argument list; C: {@code _f@8} gives {@code f} and 8 bytes of parameters, {@code @f@16}
   * 16 - 8 for the two in registers); a local one (a static function, no public) by its type:
   * {@code static RET name(ARGS)}; without types (a stripped PDB) its bare name. The parameter
   * size is the C decoration's, else 0 (see docs/native.md).
   */
  static Named name(
      PdbProcedure p,
      List<String> publics,
      PdbSignatures signatures,
      String arch,
      List<String> unformatted) {
    String name = p.name();
    long size = -1;
    if (p.global() && publics != null) {
      String pub = publicOf(p.name(), publics, arch);
      if (pub.startsWith("?")) {
        name = MsvcDemangler.demangleOrSelf(pub, MsvcDemangler.Style.BREAKPAD_FUNC);
      } else {
        name = undecorateC(pub, arch);
        size = decoratedParameterSize(pub, true);
      }
    } else if (!p.global() && signatures != null && signatures.hasTypes()) {
      try {
        name = signatures.staticFunction(p);
      } catch (PdbFormatException e) {
        unformatted.add(p.name() + " (" + e.getMessage() + ")");
      }
    } else if (publics != null && publics.contains(name)) {
      name = undecorateC(name, arch); // an assembly procedure named as its public
    }
    if (name.endsWith("(void)")) { // Breakpad's: C++'s "(void)" for no arguments is "()"
      name = name.substring(0, name.length() - 6) + "()";
    }
    return new Named(name, Math.max(size, 0));
  }

  /**
   * The public naming a procedure: of several at its address, the one whose undecorated name
   * is the procedure's, else the smallest.
   */
  static String publicOf(String procedure, List<String> publics, String arch) {
    if (publics.size() == 1) {
      return publics.get(0); // the usual case: no name to undecorate twice
    }
    String smallest = null;
    for (String pub : publics) {
      String u =
          pub.startsWith("?")
              ? MsvcDemangler.demangleOrSelf(pub, MsvcDemangler.Style.BREAKPAD_FUNC)
              : undecorateC(pub, arch);
      if (u.equals(procedure) || u.startsWith(procedure + "(") || pub.equals(procedure)) {
        return pub;
      }
      if (smallest == null || pub.compareTo(smallest) < 0) {
        smallest = pub;
      }
    }
    return smallest;
  }

  /**
   * The parameter bytes a C name's decoration gives, -1 for none: {@code _f@8} (stdcall) 8,
   * {@code @f@16} (fastcall) 16, less the 8 passed in registers with {@code lessRegisters} (as
   * Breakpad's FUNC records have it; its PUBLIC records keep 16).
   */
  static long decoratedParameterSize(String name, boolean lessRegisters) {
    if (name.length() < 2 || (name.charAt(0) != '_' && name.charAt(0) != '@')) {
      return -1;
    }
    int at = name.lastIndexOf('@');
    if (at <= 1 || at == name.length() - 1) {
      return -1;
    }
    String digits = name.substring(at + 1);
    if (digits.length() > 9 || !digits.chars().allMatch(Character::isDigit)) {
      return -1;
    }
    long n = Long.parseLong(digits);
    return name.charAt(0) == '@' && lessRegisters ? Math.max(0, n - 8) : n;
  }

  /**
   * A C name's decoration taken off as Breakpad's goldens show it: {@code _name} (cdecl), {@code
   * _name@8} (stdcall) and {@code @name@8} (fastcall) become {@code name}; Breakpad does the same
   * on x64 (where {@code _initterm} is a plain name: its x64 goldens show {@code initterm}). C++
   * names ({@code ?...}) are demangled in Breakpad's form.
   */
  static String undecorateC(String name, String arch) {
    if (name.isEmpty()) {
      return name;
    }
    if (name.charAt(0) == '?') { // C++: DIA's undecoration; what DIA leaves decorated stays so
      return MsvcDemangler.demangleOrSelf(name, MsvcDemangler.Style.BREAKPAD);
    }
    String n = name;
    if (n.charAt(0) == '_' || n.charAt(0) == '@') {
      n = n.substring(1);
      int at = n.lastIndexOf('@');
      if (at > 0
          && at < n.length() - 1
          && n.substring(at + 1).chars().allMatch(Character::isDigit)) {
        n = n.substring(0, at);
      }
    }
    return n.isEmpty() ? name : n;
  }

  /** {@code name.exe} or {@code name.dll} beside {@code name.pdb}, when its debug id matches. */
  private static Path besideImage(Path pdb, ObjectIdentity id, List<String> notes) {
    String base = pdb.getFileName().toString().replaceFirst("(?i)\\.pdb$", "");
    for (String ext : List.of(".exe", ".dll", ".EXE", ".DLL")) {
      Path candidate = pdb.resolveSibling(base + ext);
      if (Files.isRegularFile(candidate)) {
        try {
          PeFile pe = PeFile.open(candidate);
          if (pe.codeView().map(cv -> cv.debugId().equals(id.debugId())).orElse(false)) {
            return candidate;
          }
          notes.add(candidate + " belongs to another PDB: not used for INFO CODE_ID");
        } catch (IOException | ObjectFormatException e) {
          notes.add(candidate + " skipped: " + e.getMessage());
        }
      }
    }
    return null;
  }
}
