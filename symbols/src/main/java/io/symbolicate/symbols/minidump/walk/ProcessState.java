package io.symbolicate.symbols.minidump.walk;

import io.symbolicate.symbols.minidump.SystemInfo;
import java.util.List;

/**
 * A processed dump, as Breakpad's ProcessState: system facts, the crash, the modules in address
 * order, every walked thread (the dump-writing thread left out) and which one asked for the dump.
 */
public record ProcessState(
    SystemInfo systemInfo,
    boolean crashed,
    String crashReason,
    long crashAddress,
    List<Long> crashParameters,
    String assertion,
    long timeDateStamp,
    long processCreateTime,
    int requestingThread,
    List<CallStack> threads,
    List<CodeModule> modules,
    CodeModule mainModule,
    List<CodeModule> modulesWithoutSymbols,
    List<CodeModule> modulesWithCorruptSymbols,
    List<String> problems,
    AddressLookup lookup) {

  /** Looks up any address in the modules whose symbols the walk loaded (for stack contents). */
  public interface AddressLookup {
    /** The frame at {@code address} then its inlined frames; empty outside loaded modules. */
    List<Frame> framesAt(long address);
  }

  public String os() {
    return systemInfo == null ? "" : systemInfo.os();
  }

  public String osVersion() {
    return systemInfo == null ? "" : systemInfo.osVersion();
  }

  public String cpu() {
    return systemInfo == null ? "" : systemInfo.cpuName();
  }

  public String cpuInfo() {
    return systemInfo == null ? "" : systemInfo.cpuInfo();
  }

  public int cpuCount() {
    return systemInfo == null ? 0 : systemInfo.cpuCount();
  }
}
