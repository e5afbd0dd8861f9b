package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.nativecode.InlineFrame;
import io.symbolicate.symbols.nativecode.NativeFrame;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Breakpad's StackFrameSymbolizer for one dump: finds a frame's module (loaded, else unloaded),
 * asks the supplier once per code file for its symbols, and fills in the function, line and
 * inlined frames; remembers the modules found without symbols or with corrupt ones.
 */
final class Symbolizer {
  private final RangeMap<CodeModule> modules;
  private final RangeMap<CodeModule> unloaded;
  private final SymbolSupplier supplier;
  private final Map<String, Optional<ModuleSymbols>> byCodeFile = new HashMap<>();
  final List<CodeModule> withoutSymbols = new ArrayList<>();
  final List<CodeModule> withCorruptSymbols = new ArrayList<>();

  Symbolizer(RangeMap<CodeModule> modules, RangeMap<CodeModule> unloaded, SymbolSupplier supplier) {
    this.modules = modules;
    this.unloaded = unloaded;
    this.supplier = supplier;
  }

  CodeModule moduleAt(long address) {
    RangeMap.Range<CodeModule> r = modules.find(address);
    if (r == null && unloaded != null) {
      r = unloaded.find(address);
    }
    return r == null ? null : r.value();
  }

  boolean hasLoadedModule(long address) {
    return modules.find(address) != null;
  }

  ModuleSymbols symbols(CodeModule m) {
    return byCodeFile
        .computeIfAbsent(m.codeFile(), k -> Optional.ofNullable(supplier.find(m)))
        .orElse(null);
  }

  enum Result {
    NO_MODULE,
    NO_SYMBOLS,
    OK
  }

  /**
   * Fills {@code frame} from its module's symbols; {@code inlined} (when not null) receives its
   * inlined frames, innermost first.
   */
  Result fill(Frame frame, List<Frame> inlined) {
    CodeModule m = moduleAt(frame.instruction);
    if (m == null) {
      return Result.NO_MODULE;
    }
    frame.module = m;
    ModuleSymbols syms = symbols(m);
    if (syms == null) {
      return Result.NO_SYMBOLS;
    }
    NativeFrame nf = syms.lookup(frame.instruction - m.base());
    if (nf == null || nf.function() == null) {
      return Result.OK;
    }
    frame.function = nf.function();
    frame.functionBase = m.base() + nf.functionBase();
    if (nf.lineBase() != null) {
      frame.sourceLineBase = m.base() + nf.lineBase();
      frame.sourceLine = nf.line() == null ? 0 : nf.line();
      frame.sourceFile = nf.file() == null ? "" : nf.file();
    }
    if (inlined != null && !nf.inlines().isEmpty()) {
      for (InlineFrame in : nf.inlines()) {
        Frame i = Frame.inlineOf(frame);
        i.function = in.function();
        i.functionBase = m.base() + in.functionBase();
        i.sourceFile = in.file() == null ? "" : in.file();
        i.sourceLine = in.line() == null ? 0 : in.line();
        inlined.add(i);
      }
    }
    return Result.OK;
  }

  void noteResult(Frame frame, Result r) {
    if (r == Result.NO_SYMBOLS && !withoutSymbols.contains(frame.module)) {
      withoutSymbols.add(frame.module);
    } else if (r == Result.OK && frame.module != null) {
      ModuleSymbols s = symbols(frame.module);
      if (s != null && s.corrupt() && !withCorruptSymbols.contains(frame.module)) {
        withCorruptSymbols.add(frame.module);
      }
    }
  }

  /**
   * What Breakpad's resolver says of a raw address after the walk: only modules whose symbols
   * were loaded answer; the frame comes first, then its inlined frames.
   */
  List<Frame> framesIfLoaded(long address) {
    RangeMap.Range<CodeModule> r = modules.find(address);
    if (r == null) {
      return List.of();
    }
    Optional<ModuleSymbols> syms = byCodeFile.get(r.value().codeFile());
    Frame f = new Frame(null, address, Trust.NONE);
    f.module = r.value();
    List<Frame> out = new ArrayList<>();
    out.add(f);
    if (syms != null && syms.isPresent()) {
      fill(f, out);
    }
    return out;
  }

  /** Breakpad's InstructionAddressSeemsValid: in a module, and named by its symbols if any. */
  boolean seemsValid(long address) {
    Frame f = new Frame(null, address, Trust.NONE);
    Result r = fill(f, null);
    if (r == Result.NO_MODULE) {
      return false;
    }
    return r == Result.NO_SYMBOLS || !f.function.isEmpty();
  }

  CfiRules cfi(Frame f) {
    if (f.module == null) {
      return null;
    }
    ModuleSymbols s = symbols(f.module);
    return s == null ? null : s.cfiRules(f.instruction - f.module.base());
  }

  WinFrameInfo windowsFrameInfo(Frame f) {
    if (f.module == null) {
      return null;
    }
    ModuleSymbols s = symbols(f.module);
    return s == null ? null : s.windowsFrameInfo(f.instruction - f.module.base());
  }
}
