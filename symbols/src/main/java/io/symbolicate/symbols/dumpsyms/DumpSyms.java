package io.symbolicate.symbols.dumpsyms;

import io.symbolicate.symbols.cfi.CfiArch;
import io.symbolicate.symbols.cfi.CompactUnwindReader;
import io.symbolicate.symbols.cfi.DwarfCfiReader;
import io.symbolicate.symbols.demangle.Demangler;
import io.symbolicate.symbols.dwarf.DwarfException;
import io.symbolicate.symbols.dwarf.DwarfOptions;
import io.symbolicate.symbols.dwarf.DwarfReader;
import io.symbolicate.symbols.nativecode.PipelinedSymHandler;
import io.symbolicate.symbols.nativecode.SymHandler;
import io.symbolicate.symbols.objects.DebugAltLink;
import io.symbolicate.symbols.objects.DebugLink;
import io.symbolicate.symbols.objects.ElfFile;
import io.symbolicate.symbols.objects.ElfIdentity;
import io.symbolicate.symbols.objects.ElfSectionHeader;
import io.symbolicate.symbols.objects.ElfSymbols;
import io.symbolicate.symbols.objects.MachOFile;
import io.symbolicate.symbols.objects.MachOIdentity;
import io.symbolicate.symbols.objects.MachOSymbols;
import io.symbolicate.symbols.objects.MiniDebugInfo;
import io.symbolicate.symbols.objects.ObjectFormatException;
import io.symbolicate.symbols.objects.ObjectIdentity;
import io.symbolicate.symbols.objects.ObjectSections;
import io.symbolicate.symbols.objects.ObjectSymbol;
import io.symbolicate.symbols.pdb.MsfFile;
import io.symbolicate.symbols.pdb.PdbFormatException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Breakpad's {@code dump_syms} of our own: the records of a {@code .sym} (MODULE, INFO CODE_ID,
 * FILE, INLINE_ORIGIN, FUNC, lines, INLINE, PUBLIC, STACK CFI) straight from an ELF or Mach-O
 * file (or a dSYM bundle), a PDB ({@link PdbDumper}) or a PE image without its PDB ({@link
 * PeDumper}), into any {@link SymHandler}: {@link SymWriter} for a {@code .sym}, the
 * native table builder for the store. Debug info comes from the debug file (the file itself, a
 * {@code --debug-file}, or its {@code .gnu_debuglink} found beside it), unwind info and public
 * symbols from whichever file has them, as Symbolicator combines an executable and its debug
 * companion.
 */
public final class DumpSyms {

  /**
   * @param inlines write INLINE_ORIGIN and INLINE records (Mozilla's {@code --inlines})
   * @param arch the slice of a fat Mach-O file (null: the only one)
   * @param debugFile a separate debug file to read DWARF from (null: found by debug link); for a
   *     PDB, the PE image it belongs to (null: name.exe or name.dll beside it)
   */
  public record Options(boolean inlines, String arch, Path debugFile, Dialect dialect) {
    public Options(boolean inlines, String arch, Path debugFile) {
      this(inlines, arch, debugFile, Dialect.MOZILLA);
    }

    public static Options defaults() {
      return new Options(false, null, null);
    }

    public Options withDialect(Dialect d) {
      return new Options(inlines, arch, debugFile, d);
    }
  }

  /**
   * Whose {@code dump_syms} the records follow where the two differ (docs/native.md, "Our
   * dump_syms"). {@code MOZILLA}: Mozilla's (and symbolic's) records, as its goldens show.
   * {@code BREAKPAD}: Breakpad's own, so that a minidump walk equals {@code minidump_stackwalk}'s
   * with the {@code .sym} Breakpad writes: no {@code <.plt ELF section>} publics, one line record
   * per line-table address (same lines not merged), names from DWARF (the demangled linkage name,
   * else the qualified name, never the symbol table's), and a {@code DW_CFA_undefined} rule that
   * changes nothing (Breakpad keeps the CIE's return-address rule, e.g. in {@code _start}).
   */
  public enum Dialect {
    MOZILLA,
    BREAKPAD
  }

  /** What a dump read: the identity written, which files served, and what was skipped. */
  public record Report(
      ObjectIdentity identity,
      Path debugInfoFrom,
      Path supplementaryFrom,
      DwarfCfiReader.Summary unwind,
      List<String> notes) {}

  /** The sections of the Mach-O or ELF file Breakpad names with {@code <... ELF section in ...>}. */
  private static final List<String> STUB_SECTIONS = List.of(".plt", ".plt.got", ".plt.sec");

  private DumpSyms() {}

  public static Report dump(Path file, Options options, SymHandler out)
      throws IOException, DumpSymsException {
    Path target = dsymBinary(file);
    byte[] head = head(target);
    try {
      if (ElfFile.isElf(head)) {
        // the records' consumer (table builder, .sym writer) on a second thread
        try (PipelinedSymHandler records = new PipelinedSymHandler(out, "dump-syms records")) {
          return dumpElf(target, options, records);
        }
      }
      if (isMachO(head)) {
        try (PipelinedSymHandler records = new PipelinedSymHandler(out, "dump-syms records")) {
          return dumpMachO(target, options, records);
        }
      }
      if (MsfFile.isMsf(DumpSyms.head(target, 32))) {
        return PdbDumper.dump(target, options, out);
      }
      if (head.length >= 2 && head[0] == 'M' && head[1] == 'Z') {
        return PeDumper.dump(target, out); // an image without its PDB
      }
    } catch (PdbFormatException e) {
      throw new DumpSymsException(target + ": PDB: " + e.getMessage(), e);
    } catch (ObjectFormatException e) {
      throw new DumpSymsException(target + ": " + e.getMessage(), e);
    }
    throw new DumpSymsException(target + ": " + unsupported(head));
  }

  private static Report dumpElf(Path file, Options options, SymHandler out)
      throws IOException, DumpSymsException {
    List<String> notes = new ArrayList<>();
    ElfFile elf = ElfFile.open(file);
    ObjectIdentity id = ElfIdentity.of(elf);
    Path debugPath = options.debugFile() != null ? options.debugFile() : null;
    if (debugPath == null && !hasData(elf, ".debug_info")) {
      debugPath = findDebugLink(elf, file, notes);
    }
    ElfFile debug = debugPath == null ? elf : openElf(debugPath);
    if (debug != elf) {
      ObjectIdentity debugId = ElfIdentity.of(debug);
      if (!debugId.debugId().equals(id.debugId())) {
        notes.add(
            "debug file "
                + debugPath
                + " has debug id "
                + debugId.debugId()
                + ", not "
                + id.debugId());
      }
    }
    Path altPath = null;
    ElfFile alt = null;
    Optional<DebugAltLink> altLink = DebugAltLink.of(debug);
    if (altLink.isPresent()) {
      Path dir = (debugPath == null ? file : debugPath).toAbsolutePath().getParent();
      Path candidate = dir.resolve(altLink.get().fileName()).normalize();
      ElfFile found = null;
      if (Files.isRegularFile(candidate) && ElfFile.isElf(head(candidate))) {
        found = openElf(candidate);
        if (!altLink
            .get()
            .buildId()
            .equalsIgnoreCase(String.valueOf(ElfIdentity.of(found).codeId()))) {
          notes.add("DWZ file " + candidate + " has another build id: not used");
          found = null;
        }
      }
      if (found != null) {
        altPath = candidate;
        alt = found;
      } else {
        notes.add("DWZ file " + altLink.get().fileName() + " not found: names from symbols");
      }
    }

    String arch = id.arch();
    long base = id.loadAddress();
    boolean breakpad = options.dialect() == Dialect.BREAKPAD;
    out.module("Linux", arch, id.debugId(), file.getFileName().toString());
    if (id.codeId() != null) {
      out.codeId(id.codeId().toUpperCase(Locale.ROOT), null);
    }

    List<ObjectSymbol> symbols = elfSymbols(elf, debug, notes);
    Map<Long, String> byAddress = new HashMap<>();
    for (ObjectSymbol s : symbols) {
      byAddress.putIfAbsent(s.address(), s.name());
    }
    if (hasData(debug, ".debug_info")) {
      DwarfOptions dwarf =
          DwarfOptions.defaults()
              .withInlines(options.inlines())
              .withDemangler(Demangler::demangle)
              .withSymbolNames(breakpad ? null : byAddress::get)
              .withLoadAddress(base)
              .withBreakpad(breakpad);
      Path dwpPath = SplitDwarfFiles.packageOf(file, debugPath);
      ElfFile dwp = null;
      if (dwpPath != null) {
        try {
          if (ElfFile.isElf(head(dwpPath))) {
            dwp = ElfFile.open(dwpPath);
          } else {
            notes.add("split DWARF package " + dwpPath + " is not an ELF file: not used");
          }
        } catch (IOException | ObjectFormatException e) {
          notes.add("split DWARF package " + dwpPath + " cannot be read: " + e.getMessage());
        }
      }
      try {
        new DwarfReader(debug, alt, dwarf)
            .withPackage(dwp, dwpPath == null ? null : dwpPath.toString())
            .withDwoLocator(new SplitDwarfFiles(Arrays.asList(file, debugPath), notes))
            .withNotes(notes::add)
            .withSymbols(symbols)
            .read(out);
      } catch (DwarfException e) {
        throw new DumpSymsException(
            (debugPath == null ? file : debugPath) + ": DWARF: " + e.getMessage(), e);
      }
    }
    for (ObjectSymbol s : symbols) {
      publicSymbol(out, s.address() - base, Demangler.demangleOrSelf(s.name()));
    }
    String fileName = file.getFileName().toString();
    for (ElfSectionHeader h : breakpad ? List.<ElfSectionHeader>of() : elf.sections()) {
      if (STUB_SECTIONS.contains(h.name()) && h.size() > 0 && !byAddress.containsKey(h.address())) {
        publicSymbol(out, h.address() - base, "<" + h.name() + " ELF section in " + fileName + ">");
      }
    }
    ObjectSections unwindFrom = hasUnwind(elf) ? elf : debug;
    CfiArch cfiArch = CfiArch.fromBreakpad(arch);
    DwarfCfiReader.Summary unwind = null;
    if (cfiArch != null) {
      unwind = DwarfCfiReader.read(unwindFrom, cfiArch, base, !breakpad, out);
    } else {
      notes.add("no unwind records for architecture " + arch);
    }
    return new Report(id, debug == elf ? file : debugPath, altPath, unwind, notes);
  }

  private static Report dumpMachO(Path file, Options options, SymHandler out)
      throws IOException, DumpSymsException {
    List<String> notes = new ArrayList<>();
    MachOFile macho = MachOFile.open(file, options.arch());
    ObjectIdentity id = MachOIdentity.of(macho);
    MachOFile debug =
        options.debugFile() == null
            ? macho
            : MachOFile.open(dsymBinary(options.debugFile()), id.arch());
    long base = id.loadAddress();
    boolean breakpad = options.dialect() == Dialect.BREAKPAD;
    out.module("mac", id.arch(), id.debugId(), file.getFileName().toString());
    if (id.codeId() != null) {
      out.codeId(id.codeId().toUpperCase(Locale.ROOT), null);
    }
    List<ObjectSymbol> symbols = MachOSymbols.functions(macho);
    Map<Long, String> byAddress = new HashMap<>();
    for (ObjectSymbol s : symbols) {
      byAddress.putIfAbsent(s.address(), s.name());
    }
    if (debug.section(".debug_info").isPresent()) {
      DwarfOptions dwarf =
          DwarfOptions.defaults()
              .withInlines(options.inlines())
              .withDemangler(DumpSyms::demangleMachO)
              .withSymbolNames(breakpad ? null : byAddress::get)
              .withLoadAddress(base)
              .withBreakpad(breakpad);
      try {
        new DwarfReader(debug, dwarf).read(out);
      } catch (DwarfException e) {
        throw new DumpSymsException(file + ": DWARF: " + e.getMessage(), e);
      }
    }
    for (ObjectSymbol s : symbols) {
      publicSymbol(out, s.address() - base, Demangler.demangleOrSelf(s.name()));
    }
    CfiArch cfiArch = CfiArch.fromBreakpad(id.arch());
    DwarfCfiReader.Summary unwind = null;
    if (cfiArch != null) {
      // compact unwind first-class, as symbolic reads a Mach-O; names without the '_' prefix
      unwind =
          CompactUnwindReader.readMachO(
              macho,
              cfiArch,
              base,
              rel -> {
                String n = byAddress.get(base + rel);
                return n != null && n.startsWith("_") ? n.substring(1) : n;
              },
              out);
    }
    return new Report(id, debug == macho ? file : options.debugFile(), null, unwind, notes);
  }

  /** Mach-O symbols carry a leading underscore before the Itanium prefix ({@code __Z...}). */
  private static String demangleMachO(String name) {
    String d = Demangler.demangle(name);
    if (d == null && name.startsWith("__Z")) {
      d = Demangler.demangle(name.substring(1));
    }
    return d;
  }

  private static void publicSymbol(SymHandler out, long address, String name) {
    byte[] b = name.getBytes(StandardCharsets.UTF_8);
    out.publicSymbol(false, address, b, 0, b.length);
  }

  /** Symbols of the file, of its debug file, and of its MiniDebugInfo, first one per address. */
  private static List<ObjectSymbol> elfSymbols(ElfFile elf, ElfFile debug, List<String> notes) {
    List<ObjectSymbol> all = new ArrayList<>(ElfSymbols.functions(elf));
    if (debug != elf) {
      all.addAll(ElfSymbols.functions(debug));
    }
    try {
      MiniDebugInfo.of(elf).ifPresent(inner -> all.addAll(ElfSymbols.functions(inner)));
    } catch (ObjectFormatException e) {
      notes.add("MiniDebugInfo skipped: " + e.getMessage());
    }
    Map<Long, ObjectSymbol> first = new TreeMap<>();
    for (ObjectSymbol s : all) {
      first.putIfAbsent(s.address(), s);
    }
    return new ArrayList<>(first.values());
  }

  private static Path findDebugLink(ElfFile elf, Path file, List<String> notes) throws IOException {
    Optional<DebugLink> link = DebugLink.of(elf);
    if (link.isEmpty()) {
      return null;
    }
    Path dir = file.toAbsolutePath().getParent();
    for (Path candidate :
        List.of(
            dir.resolve(link.get().fileName()),
            dir.resolve(".debug").resolve(link.get().fileName()))) {
      if (Files.isRegularFile(candidate) && !candidate.equals(file.toAbsolutePath())) {
        if (link.get().matches(candidate)) {
          return candidate;
        }
        notes.add("debug link " + candidate + " has the wrong CRC: not used");
      }
    }
    notes.add("debug link " + link.get().fileName() + " not found beside " + file);
    return null;
  }

  private static ElfFile openElf(Path path) throws IOException, DumpSymsException {
    if (!ElfFile.isElf(head(path))) {
      throw new DumpSymsException(path + ": not an ELF file (" + unsupported(head(path)) + ")");
    }
    return ElfFile.open(path);
  }

  private static boolean hasData(ObjectSections sections, String name) {
    return sections.section(name).map(s -> s.size() > 0).orElse(false);
  }

  private static boolean hasUnwind(ObjectSections sections) {
    return hasData(sections, ".eh_frame") || hasData(sections, ".debug_frame");
  }

  /** A dSYM bundle's one DWARF file; any other path as it is. */
  static Path dsymBinary(Path file) throws IOException, DumpSymsException {
    if (!Files.isDirectory(file)) {
      if (!Files.isRegularFile(file)) {
        throw new DumpSymsException(file + ": no such file");
      }
      return file;
    }
    Path dwarf = file.resolve("Contents/Resources/DWARF");
    if (!Files.isDirectory(dwarf)) {
      throw new DumpSymsException(file + ": a directory, and not a dSYM bundle");
    }
    try (Stream<Path> files = Files.list(dwarf)) {
      List<Path> found = files.filter(Files::isRegularFile).sorted().toList();
      for (Path p : found) {
        if (isMachO(head(p))) {
          return p;
        }
      }
    }
    throw new DumpSymsException(
        file + ": the dSYM holds no Mach-O file in Contents/Resources/DWARF");
  }

  static byte[] head(Path file) throws IOException {
    return head(file, 8);
  }

  static byte[] head(Path file, int n) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return in.readNBytes(n);
    }
  }

  static boolean isMachO(byte[] h) {
    if (h.length < 4) {
      return false;
    }
    int be = ((h[0] & 0xff) << 24) | ((h[1] & 0xff) << 16) | ((h[2] & 0xff) << 8) | (h[3] & 0xff);
    int le = Integer.reverseBytes(be);
    return be == 0xfeedface
        || be == 0xfeedfacf
        || le == 0xfeedface
        || le == 0xfeedfacf
        || be == 0xcafebabe
        || be == 0xcafebabf;
  }

  /** What a file we do not read seems to be, for the error message. */
  static String unsupported(byte[] h) {
    String text = new String(h, StandardCharsets.ISO_8859_1);
    if (text.startsWith("MODULE")) {
      return "already a Breakpad .sym file";
    }
    if (text.startsWith("Microsof")) {
      return "a Windows PDB, but not PDB 7.0 (MSF 7.00)";
    }
    if (h.length >= 4 && h[0] == 0 && h[1] == 'a' && h[2] == 's' && h[3] == 'm') {
      return "a WebAssembly module: not read";
    }
    return "not an ELF or Mach-O file";
  }
}
