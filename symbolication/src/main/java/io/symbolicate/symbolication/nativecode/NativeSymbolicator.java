package io.symbolicate.symbolication.nativecode;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.NativeModule;
import io.symbolicate.schema.NativePayload;
import io.symbolicate.schema.NativeThread;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.StackKind;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.SymbolicatedStack;
import io.symbolicate.symbolication.platform.PlatformSymbolicator;
import io.symbolicate.symbolication.platform.SymbolicatedEvents;
import io.symbolicate.symbolication.store.ModuleReadiness;
import io.symbolicate.symbolication.store.SourceContextLookup;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.symbols.dotnet.DotnetPage;
import io.symbolicate.symbols.dotnet.DotnetTable;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.nativecode.CallerAdjust;
import io.symbolicate.symbols.nativecode.InlineFrame;
import io.symbolicate.symbols.nativecode.NativeFormat;
import io.symbolicate.symbols.nativecode.NativeFrame;
import io.symbolicate.symbols.nativecode.NativeHeader;
import io.symbolicate.symbols.nativecode.NativePage;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.sources.ContextLines;
import io.symbolicate.symbols.sources.SourcePage;
import io.symbolicate.symbols.symbfile.FileId;
import io.symbolicate.symbols.symbfile.SymbfileException;
import io.symbolicate.symbols.symbfile.SymbfileKeys;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.PageSource;
import io.symbolicate.symbols.table.TableKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Native step: resolves every frame to its module and offset, looks it up in the module's
 * Breakpad table (scope first, then global) and expands inlined frames (innermost first, sharing
 * the frame's {@code original_index}). Caller frames (every frame after the first whose trust is
 * not "context") are looked up at the return address minus the architecture's adjustment, as
 * Breakpad does; the reported module offset stays the one in the event.
 *
 * <p>The frames of a {@code pe_dotnet} module are .NET frames, as Symbolicator takes them: the
 * method's row in {@code function_id}, the IL offset as the module offset (usually {@code
 * instruction_addr} with {@code addr_mode} {@code rel:N}). They are looked up in the module's
 * Portable PDB table ({@link TableKind#DOTNET}, keyed like a native module by the PDB's name and
 * id) with the same statuses, and never adjusted as return addresses.
 */
public final class NativeSymbolicator implements PlatformSymbolicator {

  private final int contextLines;

  /** With Symbolicator's five lines of source context where a module has sources. */
  public NativeSymbolicator() {
    this(ContextLines.DEFAULT_LINES);
  }

  /**
   * @param contextLines source context lines before and after a frame's line, from the sources
   *     a module's table carries (a source bundle found beside its debug file); 0: none
   */
  public NativeSymbolicator(int contextLines) {
    if (contextLines < 0) {
      throw new IllegalArgumentException("context lines must be >= 0");
    }
    this.contextLines = contextLines;
  }

  /** Source context lines before and after a frame's line (0: none). */
  public int contextLines() {
    return contextLines;
  }

  @Override
  public Platform platform() {
    return Platform.native$;
  }

  @Override
  public int tableFormatVersion() {
    return NativeFormat.VERSION;
  }

  @Override
  public int minReadableTableVersion() {
    return NativeFormat.MIN_READABLE_VERSION;
  }

  @Override
  public ModuleReadiness readiness(long startedAt) {
    return PlatformSymbolicator.super
        .readiness(startedAt)
        .withKind(TableKind.DOTNET, DotnetTable.FORMAT_VERSION, DotnetTable.FORMAT_VERSION);
  }

  /** Sentry's module type of a .NET assembly, whose frames are looked up in its Portable PDB. */
  static final String PE_DOTNET = "pe_dotnet";

  static boolean isDotnet(NativeModule m) {
    return m.getType() != null && m.getType().equalsIgnoreCase(PE_DOTNET);
  }

  @Override
  public Platform tablePlatform(CrashEvent event, ModuleResult module) {
    List<NativeModule> modules =
        event.getNative$() == null ? null : event.getNative$().getModules();
    int i = module.getIndex();
    return modules != null && i >= 0 && i < modules.size() && isDotnet(modules.get(i))
        ? Platform.dotnet
        : Platform.native$;
  }

  /**
   * The module's key if its identifiers are valid, else null (a malformed request): its
   * Breakpad {@code debug_file/debug_id} when it has them, else {@code symbfile/<FileID>}.
   */
  static String validKey(NativeModule m) {
    String breakpad = breakpadKey(m);
    if (breakpad != null) {
      return breakpad;
    }
    String fileId = fileIdKey(m);
    return fileId != null ? fileId : codeIdKey(m);
  }

  /** A module without a debug_file/debug_id pair may be named by its code id. */
  private static String codeIdKey(NativeModule m) {
    return m.getDebugFile() == null || m.getDebugId() == null
        ? NativeModuleResolver.codeIdKey(m)
        : null;
  }

  private static String breakpadKey(NativeModule m) {
    if (m.getDebugFile() == null || m.getDebugId() == null) {
      return null;
    }
    try {
      return DebugIdentifiers.nativeModule(m.getDebugFile(), m.getDebugId()).key();
    } catch (DebugIdentifiers.InvalidIdentifierException e) {
      return null;
    }
  }

  /** {@code symbfile/<FileID>} (the canonical base64url form) of a module naming a valid FileID, else null. */
  private static String fileIdKey(NativeModule m) {
    if (m.getFileId() == null) {
      return null;
    }
    try {
      return SymbfileKeys.moduleKey(FileId.parse(m.getFileId()));
    } catch (SymbfileException e) {
      return null;
    }
  }

  /**
   * Which modules an event's frames use and their keys: computed once per event. {@code alts}
   * is the FileID's module of a module that names a debug id too (tried when the first is not
   * found).
   */
  private record Prepared(
      CrashEvent event, boolean[] referenced, String[] keys, ModuleRef[] refs, ModuleRef[] alts) {}

  /**
   * A module identity validated before: its debug id, debug file and FileID, and its
   * references in one scope (the second, the FileID's beside a debug id, or null).
   */
  private record KnownModule(
      String debugId,
      String debugFile,
      String fileId,
      String codeId,
      String codeFile,
      String type,
      ModuleRef ref,
      ModuleRef alt) {
    boolean matches(NativeModule m, String scope) {
      return Objects.equals(debugId, m.getDebugId())
          && Objects.equals(debugFile, m.getDebugFile())
          && Objects.equals(fileId, m.getFileId())
          && Objects.equals(type, m.getType())
          && ((debugId != null && debugFile != null)
              || (Objects.equals(codeId, m.getCodeId())
                  && Objects.equals(codeFile, m.getCodeFile())))
          && ref.scope().equals(scope);
    }
  }

  /** Bound of the per-thread memo of validated identities (cleared when full). */
  static final int KNOWN_MODULES = 4096;

  // per thread, by debug id: an identity seen before is not validated, upper-cased and
  // concatenated again for every event that carries it
  private final ThreadLocal<Map<String, KnownModule>> known = ThreadLocal.withInitial(HashMap::new);
  // per thread, by position: the previous event's modules. Events of one build carry the same
  // module list, so this usually answers with a few string comparisons and no hashing (the
  // event's strings are new objects each time, their hashes not computed yet)
  private final ThreadLocal<KnownModule[]> lastByIndex =
      ThreadLocal.withInitial(() -> new KnownModule[0]);

  /** Stacks up to this many frames reuse the thread's arrays; longer ones get their own. */
  static final int REUSED_STACK_FRAMES = 1024;

  // per thread: a stack's working arrays, reused from stack to stack (one event has few stacks,
  // the stream many events)
  private final ThreadLocal<StackFrames> stackFrames =
      ThreadLocal.withInitial(() -> new StackFrames(REUSED_STACK_FRAMES));

  private StackFrames stackFrames(
      int n, NativeSymbolizer[] symbolizers, SymbolLookup.Resolution[] resolutions, int extra) {
    StackFrames s = n <= REUSED_STACK_FRAMES ? stackFrames.get() : new StackFrames(n);
    return s.reset(n, symbolizers, resolutions, extra);
  }

  /** Inlined callers listed per input frame (innermost first); deeper chains say how many were left out. */
  static final int MAX_INLINES_PER_FRAME = 256;

  // the parking step asks for the modules, then symbolicates the same event on the same thread
  private final ThreadLocal<Prepared> lastPrepared = new ThreadLocal<>();

  private Prepared prepare(CrashEvent event) {
    Prepared last = lastPrepared.get();
    if (last != null && last.event() == event) {
      return last;
    }
    NativePayload p = event.getNative$();
    boolean[] referenced = referenced(p);
    String[] keys = new String[referenced.length];
    ModuleRef[] refs = new ModuleRef[referenced.length];
    ModuleRef[] alts = new ModuleRef[referenced.length];
    KnownModule[] byIndex = lastByIndex.get();
    if (byIndex.length < referenced.length) {
      byIndex = Arrays.copyOf(byIndex, referenced.length);
      lastByIndex.set(byIndex);
    }
    String scope = event.getScope();
    for (int i = 0; i < referenced.length; i++) {
      if (!referenced[i]) {
        continue;
      }
      NativeModule mod = p.getModules().get(i);
      if (mod.getDebugId() == null && mod.getFileId() == null && mod.getCodeId() == null) {
        continue; // malformed request: no key
      }
      KnownModule k = byIndex[i];
      if (k == null || !k.matches(mod, scope)) {
        k = known(mod, scope);
        byIndex[i] = k;
      }
      if (k != null) {
        keys[i] = k.ref().key();
        refs[i] = k.ref();
        alts[i] = k.alt();
      }
    }
    Prepared prepared = new Prepared(event, referenced, keys, refs, alts);
    lastPrepared.set(prepared);
    return prepared;
  }

  /** The module's validated identity in {@code scope}, or null when its identifiers are invalid. */
  private KnownModule known(NativeModule mod, String scope) {
    Map<String, KnownModule> seen = known.get();
    String memoKey =
        mod.getDebugId() != null
            ? mod.getDebugId()
            : mod.getFileId() != null ? mod.getFileId() : mod.getCodeId();
    KnownModule k = seen.get(memoKey);
    if (k != null && k.matches(mod, scope)) {
      return k;
    }
    String breakpad = breakpadKey(mod);
    boolean dotnet = isDotnet(mod);
    // a .NET module is its Portable PDB, by name and id: nothing else names it
    String fileId = dotnet ? null : fileIdKey(mod);
    String key = breakpad != null || dotnet ? breakpad : fileId != null ? fileId : codeIdKey(mod);
    if (key == null) {
      return null;
    }
    ModuleRef alt =
        breakpad != null && fileId != null ? new ModuleRef(scope, TableKind.NATIVE, fileId) : null;
    k =
        new KnownModule(
            mod.getDebugId(),
            mod.getDebugFile(),
            mod.getFileId(),
            mod.getCodeId(),
            mod.getCodeFile(),
            mod.getType(),
            new ModuleRef(scope, dotnet ? TableKind.DOTNET : TableKind.NATIVE, key),
            alt);
    if (seen.size() >= KNOWN_MODULES) {
      seen.clear();
    }
    seen.put(memoKey, k);
    return k;
  }

  @Override
  public List<ModuleRef> modulesNeeded(CrashEvent event) {
    List<ModuleRef> refs = new ArrayList<>();
    Prepared p = prepare(event);
    for (int i = 0; i < p.refs().length; i++) {
      if (p.refs()[i] != null) {
        refs.add(p.refs()[i]);
      }
      if (p.alts()[i] != null) {
        refs.add(p.alts()[i]);
      }
    }
    return refs;
  }

  /**
   * Modules that some frame refers to: looked up (found, missing...) even when that frame's own
   * offset is unusable (-1, or none), whose address alone is not looked up (invalid_frame).
   */
  private static boolean[] referenced(NativePayload p) {
    NativeModuleResolver resolver = new NativeModuleResolver(p.getModules());
    boolean[] used = new boolean[p.getModules().size()];
    for (NativeThread t : p.getThreads()) {
      for (var f : t.getFrames()) {
        int m = resolver.referencedModuleOf(f);
        if (m >= 0) {
          used[m] = true;
        }
      }
    }
    return used;
  }

  @Override
  public SymbolicatedEvent symbolicate(CrashEvent event, SymbolLookup lookup, long nowMillis) {
    NativePayload p = event.getNative$();
    List<NativeModule> modules = p.getModules();
    NativeModuleResolver resolver = new NativeModuleResolver(modules);
    Prepared prepared = prepare(event);
    boolean[] referenced = prepared.referenced();
    SymbolicatedEvent.Builder out = SymbolicatedEvents.builder(event, nowMillis);
    CallerAdjust adjust = adjustFor(p.getArch());

    // one table per module, looked up once per event
    SymbolLookup.Resolution[] resolutions = new SymbolLookup.Resolution[modules.size()];
    NativeSymbolizer[] symbolizers = new NativeSymbolizer[modules.size()];
    // the Portable PDB tables of pe_dotnet modules (null: no .NET module in the event)
    DotnetModules dotnet = null;
    // in order, without duplicates (two entries of one module): lists, as an event has a few
    List<String> inStack = out.getModulesInStack();
    List<String> missing = out.getMissingSymbols();
    for (int m = 0; m < modules.size(); m++) {
      NativeModule mod = modules.get(m);
      String key = prepared.keys()[m];
      if (!referenced[m]) {
        out.getModules()
            .add(
                SymbolicatedEvents.module(
                    m, NativeModuleResolver.moduleKey(mod), ModuleStatus.unused, null));
        continue;
      }
      if (key == null) {
        out.getModules()
            .add(
                SymbolicatedEvents.module(
                    m,
                    null,
                    ModuleStatus.malformed_request,
                    isDotnet(mod)
                        ? "pe_dotnet module needs a valid debug_file and debug_id (its Portable"
                            + " PDB's name and id)"
                        : (mod.getDebugFile() == null || mod.getDebugId() == null)
                                && mod.getFileId() == null
                            ? mod.getCodeId() == null
                                ? "module has no debug_file/debug_id, file_id or code_id"
                                : "module has no debug_file/debug_id, and its code_id names no"
                                    + " debug file (a PE timestamp, a Mach-O UUID without a file"
                                    + " name, or not hex)"
                            : mod.getFileId() != null && mod.getDebugId() == null
                                ? "invalid file_id"
                                : "invalid debug_file or debug_id"));
        continue;
      }
      addOnce(inStack, key);
      SymbolLookup.Resolution r = lookup.resolve(prepared.refs()[m]);
      ModuleRef alt = prepared.alts()[m];
      if (!r.found() && alt != null) {
        // beside a debug id, the FileID's symbfiles: used when the Breakpad file is not found
        // (both keys are in the stack's modules, so reprocessing after either upload finds it)
        addOnce(inStack, alt.key());
        SymbolLookup.Resolution byFileId = lookup.resolve(alt);
        if (byFileId.found()) {
          r = byFileId;
          key = alt.key();
        } else if (byFileId.moduleStatus() == ModuleStatus.missing) {
          addOnce(missing, alt.key());
        }
      }
      resolutions[m] = r;
      if (prepared.refs()[m].kind() == TableKind.DOTNET) {
        if (dotnet == null) {
          dotnet = new DotnetModules(modules.size());
        }
        dotnet.add(
            m, r.found() ? SourceContextLookup.tablePages(lookup, r, DotnetPage::decode) : null);
        if (r.moduleStatus() == ModuleStatus.missing) {
          addOnce(missing, key);
        }
      } else if (r.found()) {
        NativeHeader header = lookup.header(r, NativeHeader::decode);
        symbolizers[m] =
            new NativeSymbolizer(
                header, SourceContextLookup.tablePages(lookup, r, NativeSymbolicator::decodePage));
      } else if (r.moduleStatus() == ModuleStatus.missing) {
        addOnce(missing, key);
      }
      out.getModules()
          .add(SymbolicatedEvents.module(m, key, r.moduleStatus(), r.found() ? null : r.message()));
    }

    List<NativeThread> threads = p.getThreads();
    int extra = SymbolicatedEvents.MAX_EXTRA_FRAMES_PER_EVENT;
    for (int t = 0; t < threads.size(); t++) {
      var frames = threads.get(t).getFrames();
      int n = frames.size();
      // the stack's lookups go as one batch (see NativePage.lookupAll): resolve every frame and
      // find its page first, then look all of them up, writing the answers straight into the
      // output frames. Frames with a valid module_index (the usual case) resolve without a
      // Resolution object.
      StackFrames stack = stackFrames(n, symbolizers, resolutions, extra);
      stack.dotnet = dotnet;
      try {
        for (int i = 0; i < n; i++) {
          var f = frames.get(i);
          int m = f.getModuleIndex() != null ? resolver.moduleIndexOf(f) : -1;
          if (m >= 0) {
            stack.offsets[i] = f.getModuleOffset();
          } else {
            NativeModuleResolver.Resolution r = resolver.resolve(f);
            stack.resolved[i] = r;
            m = r.kind() == NativeModuleResolver.Resolution.Kind.RESOLVED ? r.moduleIndex() : -1;
            stack.offsets[i] = r.moduleOffset();
          }
          stack.moduleOf[i] = m;
          if (m >= 0 && dotnet != null && dotnet.isDotnet(m)) {
            // answered now, sent in order by nothing(i): lookupAll has no page for it
            stack.answers[i] =
                dotnet.frame(i, m, f.getFunctionId(), stack.offsets[i], resolutions[m]);
          } else if (m >= 0 && symbolizers[m] != null) {
            boolean caller = i > 0 && !"context".equals(f.getTrust());
            long returnAddress = stack.offsets[i];
            long address = (caller ? adjust : CallerAdjust.NONE).apply(returnAddress);
            NativePage page = symbolizers[m].page(address);
            // a caller frame answers from its return pad where the table has one (symbfile
            // tables; pages of others have none): the pad is at the return address minus one,
            // the adjusted address's own page when the adjustment is one byte
            var pad =
                !caller || returnAddress == 0
                    ? null
                    : address == returnAddress - 1
                        ? (page == null ? null : page.returnPad(address))
                        : symbolizers[m].returnPad(returnAddress);
            if (pad != null) {
              stack.pads[i] = pad; // sent by nothing(i): lookupAll has no page for this frame
              address = returnAddress - 1;
              page = null;
            }
            stack.addresses[i] = address;
            stack.pages[i] = page;
          }
        }
        NativePage.lookupAll(stack.pages, stack.addresses, n, stack, stack.segments);
        out.getStacks().add(SymbolicatedEvents.stack(StackKind.thread, t, stack.result));
        extra = stack.extra;
      } finally {
        stack.release(n); // no page stays referenced from here once the cache lets it go
      }
    }
    if (contextLines > 0) {
      applySourceContext(out.getStacks(), resolutions, lookup);
    }
    return out.build();
  }

  /** Context lines for the frames of modules whose tables carry sources (most carry none). */
  private void applySourceContext(
      List<SymbolicatedStack> stacks, SymbolLookup.Resolution[] resolutions, SymbolLookup lookup) {
    @SuppressWarnings("unchecked")
    PageSource<SourcePage>[] sources = null;
    for (int m = 0; m < resolutions.length; m++) {
      if (SourceContextLookup.hasSources(resolutions[m])) {
        if (sources == null) {
          sources = new PageSource[resolutions.length];
        }
        sources[m] = SourceContextLookup.sources(lookup, resolutions[m]);
      }
    }
    if (sources == null) {
      return;
    }
    SourceContextLookup.apply(stacks, sources, contextLines);
  }

  private static void addOnce(List<String> list, String key) {
    if (!list.contains(key)) {
      list.add(key);
    }
  }

  /**
   * One stack's frames: what each input frame resolved to, and the output frames that the
   * batch lookup's answers are written into, in order (inlined frames first, sharing the input
   * frame's {@code original_index}).
   */
  private static final class StackFrames implements NativePage.AnswerSink {
    final NativeModuleResolver.Resolution[] resolved;
    final int[] moduleOf;
    final long[] offsets;
    final long[] addresses;
    final NativePage[] pages;
    final int[] segments; // lookupAll's scratch
    final NativeFrame[] pads; // a caller frame's return pad, or null
    final SymbolicatedFrame[] answers; // a .NET frame's answer, or null
    DotnetModules dotnet;
    List<SymbolicatedFrame> result;
    private NativeSymbolizer[] symbolizers;
    private SymbolLookup.Resolution[] resolutions;
    // the current input frame's module index and offset, boxed once for all its output frames
    private int boxedFor = -1;
    private Integer moduleIndex;
    private Long moduleOffset;
    // output frames the event may still have beyond one per input frame (inlined callers), and
    // the inlined frames of the current input frame listed and left out
    int extra;
    private int inlinesFor = -1;
    private int inlinesListed;
    private int inlinesLeftOut;

    StackFrames(int n) {
      this.resolved = new NativeModuleResolver.Resolution[n];
      this.moduleOf = new int[n];
      this.offsets = new long[n];
      this.addresses = new long[n];
      this.pages = new NativePage[n];
      this.segments = new int[n];
      this.pads = new NativeFrame[n];
      this.answers = new SymbolicatedFrame[n];
    }

    /**
     * Ready for a stack of at most as many frames as the arrays hold, with a new result list.
     * The arrays' references are clear: {@link #release} cleared them after the previous stack.
     */
    StackFrames reset(
        int n, NativeSymbolizer[] symbolizers, SymbolLookup.Resolution[] resolutions, int extra) {
      this.result = new ArrayList<>(n + n / 4);
      this.symbolizers = symbolizers;
      this.resolutions = resolutions;
      this.boxedFor = -1;
      this.extra = extra;
      this.inlinesFor = -1;
      return this;
    }

    /** Drops the references into this event (pages, modules) once its stack of {@code n} is done. */
    void release(int n) {
      Arrays.fill(pages, 0, n, null);
      Arrays.fill(resolved, 0, n, null);
      Arrays.fill(pads, 0, n, null);
      if (dotnet != null) {
        Arrays.fill(answers, 0, n, null);
        dotnet = null;
      }
      result = null;
      symbolizers = null;
      resolutions = null;
    }

    private void box(int k) {
      if (boxedFor != k) {
        boxedFor = k;
        moduleIndex = moduleOf[k];
        moduleOffset = offsets[k];
      }
    }

    @Override
    public void nothing(int k) {
      if (dotnet != null && answers[k] != null) {
        result.add(answers[k]);
        return;
      }
      if (pads[k] != null) {
        sendPad(k, pads[k]);
        return;
      }
      int m = moduleOf[k];
      if (m < 0) {
        NativeModuleResolver.Resolution r = resolved[k];
        result.add(
            SymbolicatedEvents.frame(
                    k,
                    r.kind() == NativeModuleResolver.Resolution.Kind.UNKNOWN_MODULE
                        ? FrameStatus.unknown_module
                        : FrameStatus.invalid_frame,
                    r.message())
                .build());
        return;
      }
      box(k);
      if (symbolizers[m] != null) {
        result.add(
            SymbolicatedEvents.frame(k, FrameStatus.no_symbol, "no symbol covers this address")
                .setModuleIndex(moduleIndex)
                .setModuleOffset(moduleOffset)
                .build());
        return;
      }
      SymbolLookup.Resolution module = resolutions[m];
      FrameStatus status =
          module == null
              ? FrameStatus.missing_symbols
              : switch (module.moduleStatus()) {
                case missing -> FrameStatus.missing_symbols;
                case malformed -> FrameStatus.malformed_symbols;
                case fetch_failed -> FrameStatus.fetch_failed;
                default -> FrameStatus.missing_symbols;
              };
      String msg = module == null ? "module identifiers are invalid" : module.message();
      result.add(
          SymbolicatedEvents.frame(k, status, msg)
              .setModuleIndex(moduleIndex)
              .setModuleOffset(moduleOffset)
              .build());
    }

    /** A return pad's answer, as lookupAll sends a page's: inlined frames innermost first, then the function. */
    private void sendPad(int k, NativeFrame pad) {
      List<InlineFrame> inlines = pad.inlines();
      for (int j = 0; j < inlines.size(); j++) {
        InlineFrame in = inlines.get(j);
        inlined(
            k,
            in.function(),
            in.functionBase(),
            in.file(),
            in.line() == null ? NO_LINE : in.line());
      }
      frame(
          k,
          pad.function(),
          pad.functionBase(),
          pad.file(),
          pad.line() == null ? NO_LINE : pad.line());
    }

    @Override
    public void inlined(
        int k, CharSequence function, long functionBase, CharSequence file, int line) {
      if (inlinesFor != k) {
        inlinesFor = k;
        inlinesListed = 0;
        inlinesLeftOut = 0;
      }
      // innermost first: a frame keeps its innermost inlined callers, and its function
      if (inlinesListed >= MAX_INLINES_PER_FRAME || extra <= 0) {
        inlinesLeftOut++;
        return;
      }
      inlinesListed++;
      extra--;
      symbolicated(k, true, function, functionBase, file, line, null);
    }

    @Override
    public void frame(
        int k, CharSequence function, long functionBase, CharSequence file, int line) {
      String note = null;
      if (inlinesFor == k && inlinesLeftOut > 0) {
        note =
            inlinesLeftOut
                + " inlined frames between this function and the ones listed are not (at most "
                + MAX_INLINES_PER_FRAME
                + " per frame, "
                + SymbolicatedEvents.MAX_EXTRA_FRAMES_PER_EVENT
                + " in an event)";
      }
      inlinesFor = -1;
      symbolicated(k, false, function, functionBase, file, line, note);
    }

    private void symbolicated(
        int k,
        boolean inlined,
        CharSequence function,
        long functionBase,
        CharSequence file,
        int line,
        String note) {
      box(k);
      result.add(
          SymbolicatedEvents.frame(k, FrameStatus.symbolicated, note)
              .setInlined(inlined)
              .setModuleIndex(moduleIndex)
              .setModuleOffset(moduleOffset)
              .setFunction(function)
              .setFunctionOffset(addresses[k] - functionBase)
              .setFile(file)
              .setLine(line == NO_LINE ? null : line)
              .build());
    }
  }

  /**
   * The pe_dotnet modules of one event and their Portable PDB tables: a .NET frame is answered
   * from its module's table by (method row, IL offset), as Symbolicator's {@code
   * symbolicate_dotnet_frame} does: the sequence point at the offset or the last one before it
   * in the method; a hidden point answers line 0.
   */
  private static final class DotnetModules {
    private final boolean[] dotnet;
    private final List<PageSource<DotnetPage>> tables;

    DotnetModules(int modules) {
      this.dotnet = new boolean[modules];
      this.tables = new ArrayList<>(Collections.nCopies(modules, null));
    }

    void add(int m, PageSource<DotnetPage> table) {
      dotnet[m] = true;
      tables.set(m, table);
    }

    boolean isDotnet(int m) {
      return dotnet[m];
    }

    /** The answer for frame {@code k} of module {@code m}: method row {@code id}, IL offset {@code il}. */
    SymbolicatedFrame frame(int k, int m, Long id, long il, SymbolLookup.Resolution r) {
      if (id == null) {
        return SymbolicatedEvents.frame(
                k, FrameStatus.invalid_frame, "a frame of a pe_dotnet module needs function_id")
            .setModuleIndex(m)
            .setModuleOffset(il)
            .build();
      }
      PageSource<DotnetPage> table = tables.get(m);
      if (table == null) {
        FrameStatus status =
            switch (r.moduleStatus()) {
              case malformed -> FrameStatus.malformed_symbols;
              case fetch_failed -> FrameStatus.fetch_failed;
              default -> FrameStatus.missing_symbols;
            };
        return SymbolicatedEvents.frame(k, status, r.message())
            .setModuleIndex(m)
            .setModuleOffset(il)
            .build();
      }
      // function_id is the MethodDef row (a 24-bit index), the IL offset 32 bits
      Optional<DotnetPage.Line> line =
          id > 0 && id <= 0xffffff && il <= 0xffffffffL
              ? DotnetTable.lookup(table, (int) (long) id, il)
              : Optional.empty();
      if (line.isEmpty()) {
        return SymbolicatedEvents.frame(
                k, FrameStatus.no_symbol, "no sequence point for this method and IL offset")
            .setModuleIndex(m)
            .setModuleOffset(il)
            .build();
      }
      DotnetPage.Line l = line.get();
      return SymbolicatedEvents.frame(k, FrameStatus.symbolicated, null)
          .setModuleIndex(m)
          .setModuleOffset(il)
          .setFile(l.file())
          .setLine(l.line())
          .setColumn(l.line() == 0 ? null : l.column())
          .setLang(l.language().equals("unknown") ? null : l.language().toLowerCase(Locale.ROOT))
          // the page's own string, resolved once per file when the table was built: no
          // allocation per frame, null when no Source Link rule maps the document
          .setSourceLink(l.sourceLink())
          .build();
    }
  }

  /** Pages for the shared cache: without the per-segment answer memo (see NativePage.decode). */
  static NativePage decodePage(byte[] bytes) {
    return NativePage.decode(bytes, false);
  }

  private static CallerAdjust adjustFor(String arch) {
    if (arch == null) {
      return CallerAdjust.NONE;
    }
    try {
      return CallerAdjust.forArch(arch);
    } catch (IllegalArgumentException e) {
      return CallerAdjust.NONE;
    }
  }
}
