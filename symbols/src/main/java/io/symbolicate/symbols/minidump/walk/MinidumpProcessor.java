package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.minidump.CpuContext;
import io.symbolicate.symbols.minidump.MemoryRange;
import io.symbolicate.symbols.minidump.MemoryReader;
import io.symbolicate.symbols.minidump.Minidump;
import io.symbolicate.symbols.minidump.MinidumpException;
import io.symbolicate.symbols.minidump.Module;
import io.symbolicate.symbols.minidump.Records;
import io.symbolicate.symbols.minidump.Records.ThreadName;
import io.symbolicate.symbols.minidump.Records.UnloadedModule;
import io.symbolicate.symbols.minidump.SystemInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Walks every thread of a dump with Breakpad's MinidumpProcessor rules: the thread that wrote
 * the dump is left out; the crashed thread starts from the exception's context; each stack is
 * read from the thread's own memory descriptor, else from the memory list.
 */
public final class MinidumpProcessor {
  /** Frames per thread before the walk stops (Breakpad: 2^20; see docs/minidump.md). */
  public static final int DEFAULT_MAX_FRAMES = 1 << 16;

  private final SymbolSupplier supplier;
  private final int maxFrames;

  public MinidumpProcessor(SymbolSupplier supplier) {
    this(supplier, DEFAULT_MAX_FRAMES);
  }

  public MinidumpProcessor(SymbolSupplier supplier, int maxFrames) {
    this.supplier = supplier;
    this.maxFrames = maxFrames;
  }

  public ProcessState process(Minidump dump) throws MinidumpException {
    try {
      return run(dump);
    } catch (IllegalStateException e) {
      throw new MinidumpException("reading the dump failed during the walk: " + e.getMessage(), e);
    }
  }

  private ProcessState run(Minidump dump) throws MinidumpException {
    if (dump.stream(Minidump.THREAD_LIST) == null) {
      throw new MinidumpException("the dump has no thread list stream (Breakpad: no thread list)");
    }
    List<String> problems = new ArrayList<>(dump.problems());
    SystemInfo si = dump.systemInfo();
    boolean linuxLike = si != null && si.isLinuxLike();
    long createTime = 0;
    if (dump.miscInfo() != null
        && (dump.miscInfo().flags1() & Records.MiscInfo.FLAGS1_PROCESS_TIMES) != 0) {
      createTime = dump.miscInfo().processCreateTime();
    }

    boolean hasDumpThread = false;
    long dumpThreadId = 0;
    boolean hasRequesting = false;
    long requestingId = 0;
    if (dump.breakpadInfo() != null) {
      hasDumpThread = dump.breakpadInfo().hasDumpThread();
      dumpThreadId = dump.breakpadInfo().dumpThreadId();
      hasRequesting = dump.breakpadInfo().hasRequestingThread();
      requestingId = dump.breakpadInfo().requestingThreadId();
    }
    boolean crashed = false;
    String reason = "";
    long crashAddress = 0;
    List<Long> parameters = new ArrayList<>();
    if (dump.exception() != null) {
      crashed = true;
      hasRequesting = true;
      requestingId = dump.exception().threadId();
      CrashReason.Result r = CrashReason.of(dump.exception(), si);
      reason = r.reason();
      crashAddress = r.address();
      for (long v : dump.exception().parameters()) {
        parameters.add(v);
      }
    }

    RangeMap<CodeModule> modules = new RangeMap<>(linuxLike);
    CodeModule main = null;
    if (dump.modules() != null) {
      List<CodeModule> stored = new ArrayList<>();
      boolean ok = true;
      for (Module m : dump.modules()) {
        CodeModule cm = CodeModule.of(m);
        RangeMap.Range<CodeModule> existing = modules.find(m.base());
        if (existing != null
            && existing.value().base() == cm.base()
            && existing.value().size() == cm.size()
            && existing.value().codeFile().equals(cm.codeFile())
            && existing.value().codeId().equals(cm.codeId())) {
          continue; // a duplicate entry, which Breakpad skips
        }
        if (!modules.store(cm.base(), cm.size(), cm)) {
          problems.add(
              String.format(
                  "module list left out: %s at 0x%x overlaps another module",
                  cm.codeFile(), cm.base()));
          ok = false;
          break;
        }
        stored.add(cm);
      }
      if (!ok) {
        modules = new RangeMap<>(linuxLike);
      } else if (!dump.modules().isEmpty()) {
        main = CodeModule.of(dump.modules().get(0));
      }
    }
    RangeMap<CodeModule> unloaded = null;
    if (dump.unloadedModules() != null) {
      unloaded = new RangeMap<>(true);
      for (UnloadedModule u : dump.unloadedModules()) {
        unloaded.store(u.base(), u.size(), CodeModule.of(u));
      }
    }
    Symbolizer symbolizer = new Symbolizer(modules, unloaded, supplier);

    Map<Long, String> names = new HashMap<>();
    for (ThreadName n : dump.threadNames()) {
      names.put(n.threadId(), n.name());
    }
    // the threads to walk, in dump order (the dump-writing thread left out, as Breakpad does)
    List<Records.Thread> threads = new ArrayList<>();
    int requestingIndex = -1;
    for (Records.Thread t : dump.threads()) {
      if (hasDumpThread && t.id() == dumpThreadId) {
        continue;
      }
      if (hasRequesting && t.id() == requestingId) {
        if (requestingIndex >= 0) {
          throw new MinidumpException(
              String.format("two threads have the requesting thread's id 0x%x", requestingId));
        }
        requestingIndex = threads.size();
      }
      threads.add(t);
    }
    // the requesting thread is walked first: a supplier that answers only so many modules (the
    // stream's max.modules.per.event) then spends them on the crash, not on idle threads
    CallStack[] walked = new CallStack[threads.size()];
    String osShort = si == null ? "" : si.osShort();
    List<Integer> order = new ArrayList<>();
    if (requestingIndex >= 0) {
      order.add(requestingIndex);
    }
    for (int i = 0; i < threads.size(); i++) {
      if (i != requestingIndex) {
        order.add(i);
      }
    }
    for (int i : order) {
      Records.Thread t = threads.get(i);
      CpuContext ctx = t.context();
      if (i == requestingIndex && crashed && dump.exception().context() != null) {
        ctx = dump.exception().context();
      }
      MemoryRange stackRange = dump.stackOf(t);
      MemoryReader memory = stackRange == null ? null : dump.memory(stackRange);
      String name = names.getOrDefault(t.id(), "");
      if (ctx == null) {
        walked[i] = new CallStack(t.id(), name, List.of(), StopReason.NO_CONTEXT, memory);
        continue;
      }
      Walker w = Walker.forCpu(ctx.cpu(), osShort, memory, symbolizer);
      if (w instanceof Arm64Walker a && !modules.inOrder().isEmpty()) {
        List<RangeMap.Range<CodeModule>> all = modules.inOrder();
        a.setHighestModuleEnd(
            all.get(all.size() - 1).value().base() + all.get(all.size() - 1).value().size());
      }
      walked[i] = w.walk(t.id(), name, ctx, maxFrames);
    }
    List<CallStack> stacks = List.of(walked);
    List<CodeModule> ordered = new ArrayList<>();
    for (RangeMap.Range<CodeModule> r : modules.inOrder()) {
      ordered.add(r.value());
    }
    CodeModule mainModule = null;
    if (main != null) {
      RangeMap.Range<CodeModule> r = modules.find(main.base());
      mainModule = r == null ? null : r.value();
    }
    return new ProcessState(
        si,
        crashed,
        reason,
        crashAddress,
        List.copyOf(parameters),
        CrashReason.assertion(dump.assertion()),
        dump.header().timeDateStamp(),
        createTime,
        requestingIndex,
        stacks,
        ordered,
        mainModule,
        List.copyOf(symbolizer.withoutSymbols),
        List.copyOf(symbolizer.withCorruptSymbols),
        problems,
        symbolizer::framesIfLoaded);
  }

  static boolean same(CodeModule a, CodeModule b) {
    return Objects.equals(a, b);
  }
}
