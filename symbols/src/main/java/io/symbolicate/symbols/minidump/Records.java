package io.symbolicate.symbols.minidump;

import java.util.List;
import java.util.Map;

/** The smaller records of a minidump, as read. */
public final class Records {
  private Records() {}

  /** MDRawHeader. */
  public record Header(
      long signature,
      long version,
      long streamCount,
      long directoryRva,
      long checksum,
      long timeDateStamp,
      long flags) {}

  /** One stream directory entry. */
  public record StreamEntry(long type, long size, long rva) {}

  /** MDRawExceptionStream; {@code context} is null when absent or unreadable. */
  public record ExceptionInfo(
      long threadId,
      long code,
      long flags,
      long nestedRecord,
      long address,
      long[] parameters,
      CpuContext context) {}

  /** MDRawThread; {@code context} is null when absent or of an unknown CPU. */
  public record Thread(
      long id,
      long suspendCount,
      long priorityClass,
      long priority,
      long teb,
      MemoryRange stack,
      CpuContext context) {}

  /** MDRawUnloadedModule. */
  public record UnloadedModule(
      long base, long size, long checksum, long timeDateStamp, String name) {}

  /** The fields of MDRawMiscInfo every version has (flags1 says which hold values). */
  public record MiscInfo(
      long sizeOfInfo,
      long flags1,
      long processId,
      long processCreateTime,
      long processUserTime,
      long processKernelTime) {
    public static final long FLAGS1_PROCESS_ID = 1;
    public static final long FLAGS1_PROCESS_TIMES = 2;
  }

  /** MDRawBreakpadInfo: the thread that wrote the dump and the one that asked for it. */
  public record BreakpadInfo(long validity, long dumpThreadId, long requestingThreadId) {
    public boolean hasDumpThread() {
      return (validity & 1) != 0;
    }

    public boolean hasRequestingThread() {
      return (validity & 2) != 0;
    }
  }

  /** MDRawAssertionInfo (Breakpad's invalid-parameter and pure-virtual-call reports). */
  public record Assertion(String expression, String function, String file, long line, long type) {}

  /** A thread's name (MINIDUMP_THREAD_NAME). */
  public record ThreadName(long threadId, String name) {}

  /** Crashpad's report: ids, process annotations and per-module annotations. */
  public record CrashpadInfo(
      long version,
      String reportId,
      String clientId,
      Map<String, String> simpleAnnotations,
      List<ModuleAnnotations> modules) {}

  /** Annotations Crashpad attached to one module (by its index in the module list). */
  public record ModuleAnnotations(
      long moduleIndex, List<String> listAnnotations, Map<String, String> simpleAnnotations) {}
}
