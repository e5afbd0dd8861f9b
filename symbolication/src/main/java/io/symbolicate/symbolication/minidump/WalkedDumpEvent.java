package io.symbolicate.symbolication.minidump;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.CrashpadReport;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.MinidumpModule;
import io.symbolicate.schema.ModuleAnnotations;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.NativeFrame;
import io.symbolicate.schema.StackKind;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.SymbolicatedStack;
import io.symbolicate.schema.WalkedMinidump;
import io.symbolicate.schema.WalkedThread;
import io.symbolicate.symbolication.platform.SymbolicatedEvents;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.minidump.Cpu;
import io.symbolicate.symbols.minidump.CpuContext;
import io.symbolicate.symbols.minidump.Module;
import io.symbolicate.symbols.minidump.Records.CrashpadInfo;
import io.symbolicate.symbols.minidump.walk.CallStack;
import io.symbolicate.symbols.minidump.walk.CodeModule;
import io.symbolicate.symbols.minidump.walk.Frame;
import io.symbolicate.symbols.minidump.walk.ProcessState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The output event of a walked minidump (docs/minidump.md, "The event of a walked dump"): the
 * raw event untouched, the walk in {@code minidump} (system, crash, every thread with its walked
 * frames and their trust, modules, Crashpad annotations), and the walker's symbolication in the
 * usual {@code stacks}, {@code modules}, {@code modules_in_stack} and {@code missing_symbols},
 * whose indexes refer to the walk's threads, frames and modules. The CLI prints it ({@code
 * minidump walk --json}); the stream will emit it (issue #33).
 */
public final class WalkedDumpEvent {
  private WalkedDumpEvent() {}

  /** A module's status when the walk had no symbols for it, and why. */
  public record Status(ModuleStatus status, String message) {}

  /** Modules without symbols are missing: the CLI's view (a symbol directory). */
  public static final Function<CodeModule, Status> MISSING = m -> null;

  /** The walk's identity of a module: the raw and its index in {@code minidump.modules}. */
  private record Indexed(Map<CodeModule, Integer> index, List<CodeModule> modules) {}

  /**
   * @param raw the event as received (carries the dump)
   * @param state the walk of the dump
   * @param dumpModules the dump's module list as read (Crashpad's annotations refer to it by
   *     position), or an empty list
   * @param crashpad the dump's Crashpad info, or null
   */
  public static SymbolicatedEvent of(
      CrashEvent raw,
      ProcessState state,
      List<Module> dumpModules,
      CrashpadInfo crashpad,
      long nowMillis) {
    return of(raw, state, dumpModules, crashpad, nowMillis, MISSING);
  }

  /**
   * As above; {@code statusOf} says why a module the walk had no symbols for has none (the
   * store's answer: missing, malformed, not loaded in time), null meaning missing.
   */
  public static SymbolicatedEvent of(
      CrashEvent raw,
      ProcessState state,
      List<Module> dumpModules,
      CrashpadInfo crashpad,
      long nowMillis,
      Function<CodeModule, Status> statusOf) {
    Indexed modules = modules(state);
    SymbolicatedEvent.Builder out = SymbolicatedEvents.builder(raw, nowMillis);
    WalkedMinidump.Builder walked =
        WalkedMinidump.newBuilder()
            .setOs(emptyToNull(state.os()))
            .setOsVersion(emptyToNull(state.osVersion()))
            .setCpu(emptyToNull(state.cpu()))
            .setCpuInfo(emptyToNull(state.cpuInfo()))
            .setCpuCount(state.cpuCount())
            .setCrashed(state.crashed())
            .setCrashReason(state.crashed() ? state.crashReason() : null)
            .setCrashAddress(state.crashed() ? state.crashAddress() : null)
            .setCrashParameters(new ArrayList<>(state.crashParameters()))
            .setAssertion(emptyToNull(state.assertion()))
            .setRequestingThread(state.requestingThread() < 0 ? null : state.requestingThread())
            .setDumpTime(
                state.timeDateStamp() == 0 ? null : Instant.ofEpochSecond(state.timeDateStamp()))
            .setProcessCreateTime(
                state.processCreateTime() == 0
                    ? null
                    : Instant.ofEpochSecond(state.processCreateTime()))
            .setProblems(new ArrayList<>(state.problems()));

    List<MinidumpModule> outModules = new ArrayList<>(modules.modules().size());
    for (CodeModule m : modules.modules()) {
      outModules.add(
          MinidumpModule.newBuilder()
              .setCodeFile(emptyToNull(m.codeFile()))
              .setCodeId(emptyToNull(m.codeId()))
              .setDebugFile(emptyToNull(m.debugFile()))
              .setDebugId(emptyToNull(m.debugId()))
              .setVersion(emptyToNull(m.version()))
              .setImageAddr(m.base())
              .setImageSize(m.size())
              .setMain(
                  !m.unloaded()
                      && state.mainModule() != null
                      && state.mainModule().base() == m.base())
              .setUnloaded(m.unloaded())
              .build());
    }
    walked.setModules(outModules);

    boolean[] referenced = new boolean[modules.modules().size()];
    List<WalkedThread> threads = new ArrayList<>(state.threads().size());
    for (int t = 0; t < state.threads().size(); t++) {
      CallStack stack = state.threads().get(t);
      boolean requesting = t == state.requestingThread();
      List<NativeFrame> walkedFrames = new ArrayList<>();
      List<SymbolicatedFrame> symbolicated = new ArrayList<>(stack.frames().size());
      int physical = 0;
      for (Frame f : stack.frames()) {
        Integer mi = f.module() == null ? null : modules.index().get(f.module());
        if (mi != null) {
          referenced[mi] = true;
        }
        if (!f.isInline()) {
          long address = f.returnAddress();
          walkedFrames.add(
              NativeFrame.newBuilder()
                  .setInstructionAddr(address)
                  .setModuleIndex(mi)
                  .setModuleOffset(mi == null ? null : address - f.module().base())
                  .setTrust(f.trust().name().toLowerCase(Locale.ROOT))
                  .build());
        }
        symbolicated.add(frame(f, physical, mi, state, statusOf));
        if (!f.isInline()) {
          physical++;
        }
      }
      threads.add(
          WalkedThread.newBuilder()
              .setId(stack.threadId())
              .setName(emptyToNull(stack.threadName()))
              .setCrashed(requesting && state.crashed())
              .setRequesting(requesting)
              .setStopReason(
                  stack.stopReason() == null
                      ? null
                      : stack.stopReason().name().toLowerCase(Locale.ROOT))
              .setRegisters(registers(firstContext(stack)))
              .setFrames(walkedFrames)
              .build());
      out.getStacks()
          .add(
              SymbolicatedStack.newBuilder()
                  .setKind(StackKind.thread)
                  .setIndex(t)
                  .setFrames(symbolicated)
                  .build());
    }
    walked.setThreads(threads);
    moduleResults(out, modules.modules(), referenced, state, statusOf);
    crashpad(walked, crashpad, dumpModules, modules);
    return out.setMinidump(walked.build()).build();
  }

  /** Loaded modules in address order, then the unloaded ones a frame fell in. */
  private static Indexed modules(ProcessState state) {
    List<CodeModule> all = new ArrayList<>(state.modules());
    Map<CodeModule, Integer> index = new HashMap<>();
    for (int i = 0; i < all.size(); i++) {
      index.putIfAbsent(all.get(i), i);
    }
    for (CallStack s : state.threads()) {
      for (Frame f : s.frames()) {
        if (f.module() != null && !index.containsKey(f.module())) {
          index.put(f.module(), all.size());
          all.add(f.module());
        }
      }
    }
    return new Indexed(index, all);
  }

  private static SymbolicatedFrame frame(
      Frame f,
      int originalIndex,
      Integer moduleIndex,
      ProcessState state,
      Function<CodeModule, Status> statusOf) {
    FrameStatus status;
    String message = null;
    if (f.module() == null) {
      status = FrameStatus.unknown_module;
      message = "no module of the dump holds the address";
    } else if (!f.function().isEmpty()) {
      status = FrameStatus.symbolicated;
    } else if (state.modulesWithoutSymbols().contains(f.module())) {
      Status why = statusOf.apply(f.module());
      status =
          why == null
              ? FrameStatus.missing_symbols
              : switch (why.status()) {
                case malformed -> FrameStatus.malformed_symbols;
                case fetch_failed -> FrameStatus.fetch_failed;
                default -> FrameStatus.missing_symbols;
              };
      message = why == null ? null : why.message();
    } else {
      status = FrameStatus.no_symbol;
    }
    var b =
        SymbolicatedEvents.frame(originalIndex, status, message)
            .setInlined(f.isInline())
            .setModuleIndex(moduleIndex)
            .setModuleOffset(moduleIndex == null ? null : f.returnAddress() - f.module().base());
    if (!f.function().isEmpty()) {
      b.setFunction(f.function()).setFunctionOffset(f.instruction() - f.functionBase());
      if (!f.sourceFile().isEmpty()) {
        b.setFile(f.sourceFile()).setLine(f.sourceLine());
      }
    }
    return b.build();
  }

  private static void moduleResults(
      SymbolicatedEvent.Builder out,
      List<CodeModule> modules,
      boolean[] referenced,
      ProcessState state,
      Function<CodeModule, Status> statusOf) {
    Set<String> inStack = new HashSet<>();
    Set<String> missing = new HashSet<>();
    for (int i = 0; i < modules.size(); i++) {
      CodeModule m = modules.get(i);
      String key = key(m);
      if (!referenced[i]) {
        out.getModules().add(SymbolicatedEvents.module(i, key, ModuleStatus.unused, null));
        continue;
      }
      if (key == null) {
        out.getModules()
            .add(
                SymbolicatedEvents.module(
                    i,
                    null,
                    ModuleStatus.malformed_request,
                    m.unloaded()
                        ? "an unloaded module: the dump records no debug identifiers"
                        : "module has no valid debug_file/debug_id"));
        continue;
      }
      if (inStack.add(key)) {
        out.getModulesInStack().add(key);
      }
      if (state.modulesWithoutSymbols().contains(m)) {
        Status why = statusOf.apply(m);
        ModuleStatus status = why == null ? ModuleStatus.missing : why.status();
        if (status == ModuleStatus.missing && missing.add(key)) {
          out.getMissingSymbols().add(key);
        }
        out.getModules()
            .add(SymbolicatedEvents.module(i, key, status, why == null ? null : why.message()));
      } else {
        out.getModules()
            .add(
                SymbolicatedEvents.module(
                    i,
                    key,
                    ModuleStatus.found,
                    state.modulesWithCorruptSymbols().contains(m)
                        ? "the symbol file has lines that did not parse"
                        : null));
      }
    }
  }

  /** debug_file/debug_id as the store keys it (the debug file's last path component), or null. */
  static String key(CodeModule m) {
    if (m.unloaded() || m.debugId().isEmpty() || m.debugFile().isEmpty()) {
      return null;
    }
    try {
      return DebugIdentifiers.nativeModule(CodeModule.basename(m.debugFile()), m.debugId()).key();
    } catch (DebugIdentifiers.InvalidIdentifierException e) {
      return null;
    }
  }

  /** The registers of the thread's first real frame (inlined frames come before it and have none). */
  private static CpuContext firstContext(CallStack stack) {
    for (Frame f : stack.frames()) {
      if (f.context() != null) {
        return f.context();
      }
    }
    return null;
  }

  private static Map<String, String> registers(CpuContext c) {
    Map<String, String> out = new LinkedHashMap<>();
    if (c == null) {
      return out;
    }
    Cpu cpu = c.cpu();
    String format = cpu.pointerSize() == 4 ? "0x%08x" : "0x%016x";
    for (int r = 0; r < cpu.registers().size(); r++) {
      if (c.isValid(r)) {
        out.put(cpu.registers().get(r), String.format(format, c.get(r)));
      }
    }
    return out;
  }

  private static void crashpad(
      WalkedMinidump.Builder walked, CrashpadInfo info, List<Module> dumpModules, Indexed modules) {
    if (info == null) {
      walked.setAnnotations(new HashMap<>());
      return;
    }
    walked.setAnnotations(new LinkedHashMap<>(info.simpleAnnotations()));
    List<ModuleAnnotations> perModule = new ArrayList<>();
    for (var a : info.modules()) {
      Integer index = null;
      if (a.moduleIndex() >= 0 && a.moduleIndex() < dumpModules.size()) {
        Module m = dumpModules.get((int) a.moduleIndex());
        for (int i = 0; i < modules.modules().size(); i++) {
          CodeModule c = modules.modules().get(i);
          if (!c.unloaded() && c.base() == m.base() && c.codeFile().equals(m.codeFile())) {
            index = i;
            break;
          }
        }
      }
      perModule.add(
          ModuleAnnotations.newBuilder()
              .setModuleIndex(index)
              .setListAnnotations(new ArrayList<>(a.listAnnotations()))
              .setSimpleAnnotations(new LinkedHashMap<>(a.simpleAnnotations()))
              .build());
    }
    walked.setCrashpad(
        CrashpadReport.newBuilder()
            .setReportId(emptyToNull(info.reportId()))
            .setClientId(emptyToNull(info.clientId()))
            .setModuleAnnotations(perModule)
            .build());
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
