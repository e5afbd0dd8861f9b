package io.symbolicate.symbols.minidump;

import io.symbolicate.symbols.minidump.Records.Assertion;
import io.symbolicate.symbols.minidump.Records.BreakpadInfo;
import io.symbolicate.symbols.minidump.Records.CrashpadInfo;
import io.symbolicate.symbols.minidump.Records.ExceptionInfo;
import io.symbolicate.symbols.minidump.Records.Header;
import io.symbolicate.symbols.minidump.Records.MiscInfo;
import io.symbolicate.symbols.minidump.Records.ModuleAnnotations;
import io.symbolicate.symbols.minidump.Records.StreamEntry;
import io.symbolicate.symbols.minidump.Records.Thread;
import io.symbolicate.symbols.minidump.Records.ThreadName;
import io.symbolicate.symbols.minidump.Records.UnloadedModule;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minidump read through bounded windows of its {@link DumpSource}: the header, the stream
 * directory and the streams the walker and reports use. Memory contents stay in the file and are
 * read on demand ({@link #memory(MemoryRange)}).
 *
 * <p>Every offset, size and count is checked against the file before anything is read or
 * allocated. The header, directory and the streams the walk needs (system info, exception,
 * threads, modules, memory lists) throw {@link MinidumpException} when malformed; an optional
 * stream that does not parse is left out and its reason kept in {@link #problems()}, as Breakpad
 * leaves out streams it cannot read.
 */
public final class Minidump implements Closeable {
  public static final long SIGNATURE = 0x504d444dL; // "MDMP"
  public static final int HEADER_VERSION = 0xa793;

  /** Breakpad's limits, so that a dump it refuses is refused here too. */
  public static final int MAX_STREAMS = 128;

  public static final int MAX_THREADS = 4096;
  public static final int MAX_MODULES = 2048;
  public static final int MAX_MEMORY_REGIONS = 4096;
  public static final int MAX_CV_BYTES = 32768;
  public static final int MAX_MISC_BYTES = 32768;

  /** Longest MDString read, in UTF-16 units (module paths; Breakpad reads 1024). */
  public static final int MAX_STRING_UNITS = 4096;

  /** Largest memory range read for a walk (Breakpad: 64 MB). */
  public static final long MAX_REGION_BYTES = 64L << 20;

  /** Memory64 ranges accepted (full-memory dumps list many; 16 bytes each). */
  public static final int MAX_MEMORY64_RANGES = 1 << 20;

  /** Largest text stream kept (/proc/self/maps, lsb-release, ...). */
  public static final int MAX_TEXT_STREAM_BYTES = 4 << 20;

  public static final int MAX_ANNOTATIONS = 4096;

  public static final long THREAD_LIST = 3;
  public static final long MODULE_LIST = 4;
  public static final long MEMORY_LIST = 5;
  public static final long EXCEPTION = 6;
  public static final long SYSTEM_INFO = 7;
  public static final long MEMORY64_LIST = 9;
  public static final long UNLOADED_MODULE_LIST = 14;
  public static final long MISC_INFO = 15;
  public static final long THREAD_NAME_LIST = 24;
  public static final long BREAKPAD_INFO = 0x47670001L;
  public static final long ASSERTION_INFO = 0x47670002L;
  public static final long LINUX_CPU_INFO = 0x47670003L;
  public static final long LINUX_PROC_STATUS = 0x47670004L;
  public static final long LINUX_LSB_RELEASE = 0x47670005L;
  public static final long LINUX_CMD_LINE = 0x47670006L;
  public static final long LINUX_ENVIRON = 0x47670007L;
  public static final long LINUX_AUXV = 0x47670008L;
  public static final long LINUX_MAPS = 0x47670009L;
  public static final long LINUX_DSO_DEBUG = 0x4767000AL;
  public static final long CRASHPAD_INFO = 0x43500001L;

  private static final int HEADER_SIZE = 32;
  private static final int DIRECTORY_ENTRY_SIZE = 12;
  private static final int THREAD_SIZE = 48;
  private static final int MODULE_SIZE = 108;
  private static final int MEMORY_DESCRIPTOR_SIZE = 16;
  private static final int SYSTEM_INFO_SIZE = 56;
  private static final int EXCEPTION_SIZE = 168;
  private static final int UNLOADED_MODULE_SIZE = 24;

  private final DumpSource src;
  private final Header header;
  private final List<StreamEntry> directory;
  private final Map<Long, StreamEntry> streams = new LinkedHashMap<>();
  private final List<String> problems = new ArrayList<>();
  private SystemInfo systemInfo;
  private ExceptionInfo exception;
  private List<Thread> threads = List.of();
  private List<Module> modules;
  private List<UnloadedModule> unloadedModules;
  private List<MemoryRange> memoryList = List.of();
  private List<MemoryRange> memory64List = List.of();
  private MiscInfo miscInfo;
  private BreakpadInfo breakpadInfo;
  private Assertion assertion;
  private List<ThreadName> threadNames = List.of();
  private CrashpadInfo crashpadInfo;
  private final Map<Long, String> linuxText = new LinkedHashMap<>();
  private long[] auxv;

  private Minidump(DumpSource src) throws MinidumpException {
    this.src = src;
    byte[] h = src.read(0, HEADER_SIZE, "the header");
    header =
        new Header(
            LittleEndian.u32(h, 0),
            LittleEndian.u32(h, 4),
            LittleEndian.u32(h, 8),
            LittleEndian.u32(h, 12),
            LittleEndian.u32(h, 16),
            LittleEndian.u32(h, 20),
            LittleEndian.u64(h, 24));
    if (header.signature() != SIGNATURE) {
      throw new MinidumpException(
          String.format(
              "not a minidump: signature 0x%08x, expected 0x%08x (MDMP)",
              header.signature(), SIGNATURE));
    }
    if ((header.version() & 0xFFFF) != HEADER_VERSION) {
      throw new MinidumpException(
          String.format(
              "unsupported minidump version 0x%04x (expected 0x%04x)",
              header.version() & 0xFFFF, HEADER_VERSION));
    }
    if (header.streamCount() > MAX_STREAMS) {
      throw new MinidumpException(
          "stream count " + header.streamCount() + " exceeds the maximum of " + MAX_STREAMS);
    }
    byte[] d =
        src.read(
            header.directoryRva(),
            header.streamCount() * DIRECTORY_ENTRY_SIZE,
            "the stream directory (" + header.streamCount() + " entries)");
    List<StreamEntry> dir = new ArrayList<>();
    for (int i = 0; i < header.streamCount(); i++) {
      int at = i * DIRECTORY_ENTRY_SIZE;
      StreamEntry e =
          new StreamEntry(
              LittleEndian.u32(d, at), LittleEndian.u32(d, at + 4), LittleEndian.u32(d, at + 8));
      dir.add(e);
      if (e.type() == 0) {
        continue; // MD_UNUSED_STREAM
      }
      boolean single =
          e.type() == THREAD_LIST
              || e.type() == THREAD_NAME_LIST
              || e.type() == MODULE_LIST
              || e.type() == MEMORY_LIST
              || e.type() == EXCEPTION
              || e.type() == SYSTEM_INFO
              || e.type() == MISC_INFO
              || e.type() == BREAKPAD_INFO
              || e.type() == CRASHPAD_INFO;
      if (single && streams.containsKey(e.type())) {
        throw new MinidumpException(
            String.format(
                "more than one stream of type 0x%x (entries %d and earlier)", e.type(), i));
      }
      streams.put(e.type(), e);
    }
    directory = Collections.unmodifiableList(dir);
    readStreams();
  }

  /** Reads a dump from a file through ranged reads; close it when done. */
  public static Minidump open(Path path) throws IOException, MinidumpException {
    DumpSource s = DumpSource.open(path);
    try {
      return new Minidump(s);
    } catch (MinidumpException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  public static Minidump read(DumpSource source) throws MinidumpException {
    return new Minidump(source);
  }

  public static Minidump read(byte[] bytes) throws MinidumpException {
    return new Minidump(DumpSource.of(bytes));
  }

  @Override
  public void close() throws IOException {
    src.close();
  }

  // ---- accessors ----

  public Header header() {
    return header;
  }

  public List<StreamEntry> directory() {
    return directory;
  }

  public StreamEntry stream(long type) {
    return streams.get(type);
  }

  /** Reasons why optional streams were left out. */
  public List<String> problems() {
    return Collections.unmodifiableList(problems);
  }

  public SystemInfo systemInfo() {
    return systemInfo;
  }

  public ExceptionInfo exception() {
    return exception;
  }

  public List<Thread> threads() {
    return threads;
  }

  /** Modules in the order of the list; null without a module list stream. */
  public List<Module> modules() {
    return modules;
  }

  public List<UnloadedModule> unloadedModules() {
    return unloadedModules;
  }

  public List<MemoryRange> memoryList() {
    return memoryList;
  }

  public List<MemoryRange> memory64List() {
    return memory64List;
  }

  public MiscInfo miscInfo() {
    return miscInfo;
  }

  public BreakpadInfo breakpadInfo() {
    return breakpadInfo;
  }

  public Assertion assertion() {
    return assertion;
  }

  public List<ThreadName> threadNames() {
    return threadNames;
  }

  public CrashpadInfo crashpadInfo() {
    return crashpadInfo;
  }

  /** A Linux text stream (maps, lsb-release, cpuinfo, status, cmdline, environ), or null. */
  public String linuxText(long type) {
    return linuxText.get(type);
  }

  public String linuxMaps() {
    return linuxText.get(LINUX_MAPS);
  }

  public String lsbRelease() {
    return linuxText.get(LINUX_LSB_RELEASE);
  }

  /** The auxiliary vector as (type, value) pairs, or null. */
  public long[] auxv() {
    return auxv == null ? null : auxv.clone();
  }

  /** The memory list range holding {@code address} (64-bit list too), or null. */
  public MemoryRange memoryRangeAt(long address) {
    for (MemoryRange r : memoryList) {
      if (r.contains(address)) {
        return r;
      }
    }
    for (MemoryRange r : memory64List) {
      if (r.contains(address)) {
        return r;
      }
    }
    return null;
  }

  /** A reader for a range's bytes, through a bounded window of the file. */
  public MemoryReader memory(MemoryRange range) throws MinidumpException {
    if (range.size() > MAX_REGION_BYTES) {
      throw new MinidumpException(
          "memory range at 0x"
              + Long.toHexString(range.base())
              + " is "
              + range.size()
              + " bytes, over the "
              + MAX_REGION_BYTES
              + "-byte limit");
    }
    src.check(range.rva(), range.size(), "memory at 0x" + Long.toHexString(range.base()));
    return new MemoryReader(src, range);
  }

  // ---- stream parsing ----

  private byte[] streamBytes(StreamEntry e, String what) throws MinidumpException {
    return src.read(e.rva(), e.size(), what);
  }

  private void readStreams() throws MinidumpException {
    StreamEntry e;
    if ((e = streams.get(SYSTEM_INFO)) != null) {
      systemInfo = readSystemInfo(e);
    }
    if ((e = streams.get(EXCEPTION)) != null) {
      exception = readException(e);
    }
    if ((e = streams.get(MEMORY_LIST)) != null) {
      memoryList = readMemoryList(e);
    }
    if ((e = streams.get(MEMORY64_LIST)) != null) {
      memory64List = readMemory64List(e);
    }
    if ((e = streams.get(THREAD_LIST)) != null) {
      threads = readThreads(e);
    }
    if ((e = streams.get(MODULE_LIST)) != null) {
      modules = readModules(e);
    }
    optional(UNLOADED_MODULE_LIST, "unloaded module list", s -> unloadedModules = readUnloaded(s));
    optional(MISC_INFO, "misc info", s -> miscInfo = readMiscInfo(s));
    optional(BREAKPAD_INFO, "Breakpad info", s -> breakpadInfo = readBreakpadInfo(s));
    optional(ASSERTION_INFO, "assertion info", s -> assertion = readAssertion(s));
    optional(THREAD_NAME_LIST, "thread name list", s -> threadNames = readThreadNames(s));
    optional(CRASHPAD_INFO, "Crashpad info", s -> crashpadInfo = readCrashpad(s));
    for (long t :
        new long[] {
          LINUX_CPU_INFO,
          LINUX_PROC_STATUS,
          LINUX_LSB_RELEASE,
          LINUX_CMD_LINE,
          LINUX_ENVIRON,
          LINUX_MAPS
        }) {
      optional(t, String.format("Linux stream 0x%x", t), s -> linuxText.put(s.type(), readText(s)));
    }
    optional(LINUX_AUXV, "auxv", s -> auxv = readAuxv(s));
  }

  private interface StreamReader {
    void read(StreamEntry e) throws MinidumpException;
  }

  private void optional(long type, String what, StreamReader r) {
    StreamEntry e = streams.get(type);
    if (e == null) {
      return;
    }
    try {
      r.read(e);
    } catch (MinidumpException ex) {
      problems.add(what + " left out: " + ex.getMessage());
    }
  }

  private SystemInfo readSystemInfo(StreamEntry e) throws MinidumpException {
    if (e.size() < SYSTEM_INFO_SIZE) {
      throw new MinidumpException(
          "system info stream is " + e.size() + " bytes, expected " + SYSTEM_INFO_SIZE);
    }
    byte[] b = src.read(e.rva(), SYSTEM_INFO_SIZE, "system info");
    int arch = LittleEndian.u16(b, 0);
    String vendor = null;
    if (arch == SystemInfo.ARCH_X86 || arch == SystemInfo.ARCH_AMD64) {
      StringBuilder sb = new StringBuilder();
      for (int i = 32; i < 44 && b[i] != 0; i++) {
        sb.append((char) (b[i] & 0xFF));
      }
      vendor = sb.toString();
    }
    String csd = optionalString(LittleEndian.u32(b, 24));
    return new SystemInfo(
        arch,
        LittleEndian.u16(b, 2),
        LittleEndian.u16(b, 4),
        LittleEndian.u8(b, 6),
        LittleEndian.u8(b, 7),
        LittleEndian.u32(b, 8),
        LittleEndian.u32(b, 12),
        LittleEndian.u32(b, 16),
        LittleEndian.u32(b, 20),
        csd,
        vendor);
  }

  private Cpu systemCpu() {
    return systemInfo == null ? null : systemInfo.cpu();
  }

  private CpuContext readContext(long size, long rva) {
    if (size == 0 || size > 64 * 1024 || !src.contains(rva, size)) {
      return null;
    }
    try {
      return ContextReader.read(src.read(rva, size, "a CPU context"), systemCpu());
    } catch (MinidumpException ex) {
      return null;
    }
  }

  private ExceptionInfo readException(StreamEntry e) throws MinidumpException {
    if (e.size() < EXCEPTION_SIZE) {
      throw new MinidumpException(
          "exception stream is " + e.size() + " bytes, expected " + EXCEPTION_SIZE);
    }
    byte[] b = src.read(e.rva(), EXCEPTION_SIZE, "the exception stream");
    long n = Math.min(LittleEndian.u32(b, 32), 15);
    long[] params = new long[(int) n];
    for (int i = 0; i < n; i++) {
      params[i] = LittleEndian.u64(b, 40 + 8 * i);
    }
    CpuContext ctx = readContext(LittleEndian.u32(b, 160), LittleEndian.u32(b, 164));
    return new ExceptionInfo(
        LittleEndian.u32(b, 0),
        LittleEndian.u32(b, 8),
        LittleEndian.u32(b, 12),
        LittleEndian.u64(b, 16),
        LittleEndian.u64(b, 24),
        params,
        ctx);
  }

  /**
   * Checks a list's count against its stream: {@code 4 + count * entry} bytes, or 4 more (64-bit
   * writers pad after the count). Returns the offset of the first entry.
   */
  private static int listStart(StreamEntry e, long count, int entry, int max, String what)
      throws MinidumpException {
    if (count > max) {
      throw new MinidumpException(
          what + " claims " + count + " entries, over the maximum of " + max);
    }
    long need = 4 + count * entry;
    if (e.size() == need) {
      return 4;
    }
    if (e.size() == need + 4) {
      return 8;
    }
    throw new MinidumpException(
        what
            + " claims "
            + count
            + " entries of "
            + entry
            + " bytes, which does not match its "
            + e.size()
            + "-byte stream");
  }

  private long count(StreamEntry e, String what) throws MinidumpException {
    if (e.size() < 4) {
      throw new MinidumpException(
          what + " stream is " + e.size() + " bytes, too short for a count");
    }
    return LittleEndian.u32(src.read(e.rva(), 4, what + " count"), 0);
  }

  private List<MemoryRange> readMemoryList(StreamEntry e) throws MinidumpException {
    long n = count(e, "memory list");
    int start = listStart(e, n, MEMORY_DESCRIPTOR_SIZE, MAX_MEMORY_REGIONS, "memory list");
    byte[] b = streamBytes(e, "the memory list");
    List<MemoryRange> out = new ArrayList<>((int) n);
    for (int i = 0; i < n; i++) {
      int at = start + i * MEMORY_DESCRIPTOR_SIZE;
      MemoryRange r =
          new MemoryRange(
              LittleEndian.u64(b, at), LittleEndian.u32(b, at + 8), LittleEndian.u32(b, at + 12));
      checkRange(r, "memory list entry " + i);
      out.add(r);
    }
    return Collections.unmodifiableList(out);
  }

  private void checkRange(MemoryRange r, String what) throws MinidumpException {
    if (r.size() == 0 || Long.compareUnsigned(r.base() + r.size() - 1, r.base()) < 0) {
      throw new MinidumpException(
          what
              + String.format(
                  " at 0x%x (%d bytes) is empty or wraps the address space", r.base(), r.size()));
    }
    src.check(r.rva(), r.size(), what + String.format(" (memory at 0x%x)", r.base()));
  }

  private List<MemoryRange> readMemory64List(StreamEntry e) throws MinidumpException {
    if (e.size() < 16) {
      throw new MinidumpException("memory64 list stream is " + e.size() + " bytes, too short");
    }
    byte[] h = src.read(e.rva(), 16, "memory64 list header");
    long n = LittleEndian.u64(h, 0);
    long rva = LittleEndian.u64(h, 8);
    if (n < 0 || n > MAX_MEMORY64_RANGES) {
      throw new MinidumpException(
          "memory64 list claims "
              + Long.toUnsignedString(n)
              + " ranges, over the maximum of "
              + MAX_MEMORY64_RANGES);
    }
    if (e.size() != 16 + n * 16) {
      throw new MinidumpException(
          "memory64 list claims "
              + n
              + " ranges, which does not match its "
              + e.size()
              + "-byte stream");
    }
    byte[] b = streamBytes(e, "the memory64 list");
    List<MemoryRange> out = new ArrayList<>((int) n);
    for (int i = 0; i < n; i++) {
      int at = 16 + i * 16;
      long size = LittleEndian.u64(b, at + 8);
      MemoryRange r = new MemoryRange(LittleEndian.u64(b, at), size, rva);
      if (size < 0 || !src.contains(rva, size)) {
        throw new MinidumpException(
            "memory64 range "
                + i
                + String.format(" at 0x%x", r.base())
                + " ("
                + Long.toUnsignedString(size)
                + " bytes at offset "
                + rva
                + ") lies outside the "
                + src.size()
                + "-byte dump");
      }
      checkRange(r, "memory64 range " + i);
      out.add(r);
      rva += size;
    }
    return Collections.unmodifiableList(out);
  }

  private List<Thread> readThreads(StreamEntry e) throws MinidumpException {
    long n = count(e, "thread list");
    int start = listStart(e, n, THREAD_SIZE, MAX_THREADS, "thread list");
    byte[] b = streamBytes(e, "the thread list");
    List<Thread> out = new ArrayList<>((int) n);
    for (int i = 0; i < n; i++) {
      int at = start + i * THREAD_SIZE;
      MemoryRange stack =
          new MemoryRange(
              LittleEndian.u64(b, at + 24),
              LittleEndian.u32(b, at + 32),
              LittleEndian.u32(b, at + 36));
      CpuContext ctx = readContext(LittleEndian.u32(b, at + 40), LittleEndian.u32(b, at + 44));
      out.add(
          new Thread(
              LittleEndian.u32(b, at),
              LittleEndian.u32(b, at + 4),
              LittleEndian.u32(b, at + 8),
              LittleEndian.u32(b, at + 12),
              LittleEndian.u64(b, at + 16),
              stack,
              ctx));
    }
    return Collections.unmodifiableList(out);
  }

  /** The memory of a thread's stack: its own descriptor if readable, else the memory list's. */
  public MemoryRange stackOf(Thread t) {
    MemoryRange s = t.stack();
    if (s.size() > 0
        && src.contains(s.rva(), s.size())
        && Long.compareUnsigned(s.base() + s.size() - 1, s.base()) >= 0
        && s.size() <= MAX_REGION_BYTES) {
      return s;
    }
    return s.base() != 0 ? memoryRangeAt(s.base()) : null;
  }

  private List<Module> readModules(StreamEntry e) throws MinidumpException {
    long n = count(e, "module list");
    int start = listStart(e, n, MODULE_SIZE, MAX_MODULES, "module list");
    byte[] b = streamBytes(e, "the module list");
    long platform = systemInfo == null ? -1 : systemInfo.platformId();
    List<Module> out = new ArrayList<>((int) n);
    for (int i = 0; i < n; i++) {
      int at = start + i * MODULE_SIZE;
      long base = LittleEndian.u64(b, at);
      long size = LittleEndian.u32(b, at + 8);
      if (size == 0 || Long.compareUnsigned(base + size - 1, base) < 0) {
        throw new MinidumpException(
            String.format(
                "module %d at 0x%x has size %d: empty or wrapping the address space",
                i, base, size));
      }
      String name = string(LittleEndian.u32(b, at + 20), "module " + i + "'s name");
      Module.CodeView cv = codeView(LittleEndian.u32(b, at + 76), LittleEndian.u32(b, at + 80));
      String misc = miscRecord(LittleEndian.u32(b, at + 84), LittleEndian.u32(b, at + 88));
      out.add(
          new Module(
              base,
              size,
              LittleEndian.u32(b, at + 12),
              LittleEndian.u32(b, at + 16),
              name,
              LittleEndian.u32(b, at + 24),
              LittleEndian.u32(b, at + 28),
              LittleEndian.u32(b, at + 32),
              LittleEndian.u32(b, at + 36),
              cv,
              misc,
              platform));
    }
    return Collections.unmodifiableList(out);
  }

  private Module.CodeView codeView(long size, long rva) {
    if (size < 4 || size > MAX_CV_BYTES || !src.contains(rva, size)) {
      return null;
    }
    byte[] b;
    try {
      b = src.read(rva, size, "a CodeView record");
    } catch (MinidumpException ex) {
      return null;
    }
    int sig = LittleEndian.i32(b, 0);
    switch (sig) {
      case Module.CodeView.PDB70:
        {
          if (b.length < 25 || b[b.length - 1] != 0) {
            return null;
          }
          byte[] guid = new byte[16];
          System.arraycopy(b, 4, guid, 0, 16);
          return new Module.CodeView(sig, guid, 0, LittleEndian.u32(b, 20), cString(b, 24));
        }
      case Module.CodeView.PDB20:
        {
          if (b.length < 17 || b[b.length - 1] != 0) {
            return null;
          }
          return new Module.CodeView(
              sig, null, LittleEndian.u32(b, 8), LittleEndian.u32(b, 12), cString(b, 16));
        }
      case Module.CodeView.ELF:
        {
          byte[] id = new byte[b.length - 4];
          System.arraycopy(b, 4, id, 0, id.length);
          return new Module.CodeView(sig, id, 0, 0, "");
        }
      default:
        return null;
    }
  }

  private String miscRecord(long size, long rva) {
    // IMAGE_DEBUG_MISC: type u32, length u32, unicode u8, reserved[3], data
    if (size <= 12 || size > MAX_MISC_BYTES || !src.contains(rva, size)) {
      return null;
    }
    try {
      byte[] b = src.read(rva, size, "a misc debug record");
      if (b[8] == 0) {
        return cString(b, 12);
      }
      int bytes = b.length - 12;
      if (bytes % 2 != 0) {
        return null;
      }
      String s = new String(b, 12, bytes, StandardCharsets.UTF_16LE);
      int nul = s.indexOf('\0');
      return nul >= 0 ? s.substring(0, nul) : s;
    } catch (MinidumpException ex) {
      return null;
    }
  }

  private static String cString(byte[] b, int from) {
    int end = from;
    while (end < b.length && b[end] != 0) {
      end++;
    }
    return new String(b, from, end - from, StandardCharsets.UTF_8);
  }

  /** An MDString (u32 byte length, UTF-16LE), checked against the file and MAX_STRING_UNITS. */
  String string(long rva, String what) throws MinidumpException {
    byte[] len = src.read(rva, 4, what + "'s length");
    long bytes = LittleEndian.u32(len, 0);
    if (bytes % 2 != 0 || bytes / 2 > MAX_STRING_UNITS) {
      throw new MinidumpException(
          what + " claims " + bytes + " bytes (odd or over " + MAX_STRING_UNITS + " UTF-16 units)");
    }
    byte[] b = src.read(rva + 4, bytes, what);
    return new String(b, StandardCharsets.UTF_16LE);
  }

  private String optionalString(long rva) {
    if (rva == 0) {
      return null;
    }
    try {
      return string(rva, "a string");
    } catch (MinidumpException ex) {
      return null;
    }
  }

  private List<UnloadedModule> readUnloaded(StreamEntry e) throws MinidumpException {
    if (e.size() < 12) {
      throw new MinidumpException("stream is " + e.size() + " bytes, too short for its header");
    }
    byte[] h = src.read(e.rva(), 12, "unloaded module list header");
    long headerSize = LittleEndian.u32(h, 0);
    long entrySize = LittleEndian.u32(h, 4);
    long n = LittleEndian.u32(h, 8);
    if (headerSize < 12 || entrySize < UNLOADED_MODULE_SIZE || n > MAX_MODULES) {
      throw new MinidumpException(
          "header "
              + headerSize
              + " bytes, entries "
              + entrySize
              + " bytes, "
              + n
              + " entries (at most "
              + MAX_MODULES
              + ")");
    }
    if (headerSize + n * entrySize > e.size()) {
      throw new MinidumpException(
          n + " entries of " + entrySize + " bytes do not fit its " + e.size() + "-byte stream");
    }
    byte[] b = streamBytes(e, "the unloaded module list");
    List<UnloadedModule> out = new ArrayList<>((int) n);
    for (int i = 0; i < n; i++) {
      int at = (int) (headerSize + i * entrySize);
      long base = LittleEndian.u64(b, at);
      long size = LittleEndian.u32(b, at + 8);
      if (size == 0 || Long.compareUnsigned(base + size - 1, base) < 0) {
        continue; // Breakpad skips such an entry
      }
      out.add(
          new UnloadedModule(
              base,
              size,
              LittleEndian.u32(b, at + 12),
              LittleEndian.u32(b, at + 16),
              string(LittleEndian.u32(b, at + 20), "unloaded module " + i + "'s name")));
    }
    return Collections.unmodifiableList(out);
  }

  private MiscInfo readMiscInfo(StreamEntry e) throws MinidumpException {
    if (e.size() < 24) {
      throw new MinidumpException("stream is " + e.size() + " bytes, expected at least 24");
    }
    byte[] b = src.read(e.rva(), 24, "misc info");
    return new MiscInfo(
        LittleEndian.u32(b, 0),
        LittleEndian.u32(b, 4),
        LittleEndian.u32(b, 8),
        LittleEndian.u32(b, 12),
        LittleEndian.u32(b, 16),
        LittleEndian.u32(b, 20));
  }

  private BreakpadInfo readBreakpadInfo(StreamEntry e) throws MinidumpException {
    if (e.size() != 12) {
      throw new MinidumpException("stream is " + e.size() + " bytes, expected 12");
    }
    byte[] b = streamBytes(e, "Breakpad info");
    return new BreakpadInfo(LittleEndian.u32(b, 0), LittleEndian.u32(b, 4), LittleEndian.u32(b, 8));
  }

  private Assertion readAssertion(StreamEntry e) throws MinidumpException {
    int size = 3 * 256 + 8;
    if (e.size() != size) {
      throw new MinidumpException("stream is " + e.size() + " bytes, expected " + size);
    }
    byte[] b = streamBytes(e, "assertion info");
    return new Assertion(
        utf16z(b, 0, 256),
        utf16z(b, 256, 256),
        utf16z(b, 512, 256),
        LittleEndian.u32(b, 768),
        LittleEndian.u32(b, 772));
  }

  private static String utf16z(byte[] b, int from, int bytes) {
    int end = from;
    while (end + 1 < from + bytes && (b[end] != 0 || b[end + 1] != 0)) {
      end += 2;
    }
    return new String(b, from, end - from, StandardCharsets.UTF_16LE);
  }

  private List<ThreadName> readThreadNames(StreamEntry e) throws MinidumpException {
    long n = count(e, "thread name list");
    if (n > MAX_THREADS || 4 + n * 12 > e.size()) {
      throw new MinidumpException(n + " entries do not fit its " + e.size() + "-byte stream");
    }
    byte[] b = streamBytes(e, "the thread name list");
    List<ThreadName> out = new ArrayList<>((int) n);
    for (int i = 0; i < n; i++) {
      int at = 4 + i * 12;
      out.add(
          new ThreadName(
              LittleEndian.u32(b, at), string(LittleEndian.u64(b, at + 4), "thread name " + i)));
    }
    return Collections.unmodifiableList(out);
  }

  private String readText(StreamEntry e) throws MinidumpException {
    if (e.size() > MAX_TEXT_STREAM_BYTES) {
      throw new MinidumpException(
          "stream is " + e.size() + " bytes, over the " + MAX_TEXT_STREAM_BYTES + "-byte limit");
    }
    return new String(streamBytes(e, "a text stream"), StandardCharsets.UTF_8);
  }

  private long[] readAuxv(StreamEntry e) throws MinidumpException {
    int word = systemInfo != null && systemInfo.cpu() != null ? systemInfo.cpu().pointerSize() : 8;
    if (e.size() > MAX_TEXT_STREAM_BYTES || e.size() % (2L * word) != 0) {
      throw new MinidumpException(
          "stream is "
              + e.size()
              + " bytes, not whole (type, value) pairs of "
              + word
              + "-byte words");
    }
    byte[] b = streamBytes(e, "auxv");
    long[] out = new long[b.length / word];
    for (int i = 0; i < out.length; i++) {
      out[i] = word == 8 ? LittleEndian.u64(b, i * 8) : LittleEndian.u32(b, i * 4);
    }
    return out;
  }

  private CrashpadInfo readCrashpad(StreamEntry e) throws MinidumpException {
    // version u32, report_id GUID, client_id GUID, simple_annotations loc, module_list loc
    if (e.size() < 52) {
      throw new MinidumpException("stream is " + e.size() + " bytes, expected at least 52");
    }
    byte[] b = src.read(e.rva(), 52, "Crashpad info");
    HexFormat hex = HexFormat.of();
    Map<String, String> simple = dictionary(LittleEndian.u32(b, 36), LittleEndian.u32(b, 40));
    List<ModuleAnnotations> mods = new ArrayList<>();
    long mSize = LittleEndian.u32(b, 44);
    long mRva = LittleEndian.u32(b, 48);
    if (mSize >= 4) {
      long n = LittleEndian.u32(src.read(mRva, 4, "Crashpad module list count"), 0);
      if (n > MAX_MODULES || 4 + n * 12 > mSize) {
        throw new MinidumpException(
            "Crashpad module list claims " + n + " entries in " + mSize + " bytes");
      }
      byte[] l = src.read(mRva, 4 + n * 12, "the Crashpad module list");
      for (int i = 0; i < n; i++) {
        int at = 4 + i * 12;
        long index = LittleEndian.u32(l, at);
        long infoSize = LittleEndian.u32(l, at + 4);
        long infoRva = LittleEndian.u32(l, at + 8);
        // MinidumpModuleCrashpadInfo: version u32, list_annotations loc, simple_annotations loc
        if (infoSize < 20) {
          continue;
        }
        byte[] m = src.read(infoRva, 20, "Crashpad module info");
        mods.add(
            new ModuleAnnotations(
                index,
                stringList(LittleEndian.u32(m, 4), LittleEndian.u32(m, 8)),
                dictionary(LittleEndian.u32(m, 12), LittleEndian.u32(m, 16))));
      }
    }
    return new CrashpadInfo(
        LittleEndian.u32(b, 0),
        hex.formatHex(b, 4, 20),
        hex.formatHex(b, 20, 36),
        simple,
        Collections.unmodifiableList(mods));
  }

  private String utf8String(long rva) throws MinidumpException {
    long len = LittleEndian.u32(src.read(rva, 4, "a UTF-8 string's length"), 0);
    if (len > MAX_STRING_UNITS * 4L) {
      throw new MinidumpException("a UTF-8 string claims " + len + " bytes");
    }
    return new String(src.read(rva + 4, len, "a UTF-8 string"), StandardCharsets.UTF_8);
  }

  private Map<String, String> dictionary(long size, long rva) throws MinidumpException {
    Map<String, String> out = new LinkedHashMap<>();
    if (size < 4) {
      return out;
    }
    long n = LittleEndian.u32(src.read(rva, 4, "annotation count"), 0);
    if (n > MAX_ANNOTATIONS || 4 + n * 8 > size) {
      throw new MinidumpException(
          "annotation dictionary claims " + n + " entries in " + size + " bytes");
    }
    byte[] b = src.read(rva, 4 + n * 8, "annotations");
    for (int i = 0; i < n; i++) {
      out.put(
          utf8String(LittleEndian.u32(b, 4 + i * 8)), utf8String(LittleEndian.u32(b, 8 + i * 8)));
    }
    return out;
  }

  private List<String> stringList(long size, long rva) throws MinidumpException {
    List<String> out = new ArrayList<>();
    if (size < 4) {
      return out;
    }
    long n = LittleEndian.u32(src.read(rva, 4, "annotation list count"), 0);
    if (n > MAX_ANNOTATIONS || 4 + n * 4 > size) {
      throw new MinidumpException("annotation list claims " + n + " entries in " + size + " bytes");
    }
    byte[] b = src.read(rva, 4 + n * 4, "annotation list");
    for (int i = 0; i < n; i++) {
      out.add(utf8String(LittleEndian.u32(b, 4 + i * 4)));
    }
    return out;
  }
}
