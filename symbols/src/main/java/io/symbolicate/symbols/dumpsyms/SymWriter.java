package io.symbolicate.symbols.dumpsyms;

import io.symbolicate.symbols.nativecode.SymHandler;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;

/**
 * Writes the records it is handed as a Breakpad {@code .sym} in the order Mozilla's dump_syms
 * writes them: MODULE, INFO CODE_ID, FILE and INLINE_ORIGIN by id (a blank origin name as {@code
 * <name omitted>}), then FUNC (with its INLINE and line records) and PUBLIC records sorted by
 * address. A second record at an address already taken is dropped and the first is marked
 * {@code m} (multiple), as dump_syms does; then the STACK CFI records in the order they came.
 * Keeps everything until {@link #writeTo}.
 */
public final class SymWriter implements SymHandler {
  private String moduleLine;
  private String infoLine;
  private final TreeMap<Integer, String> files = new TreeMap<>();
  private final TreeMap<Integer, String> origins = new TreeMap<>();
  private final List<Entry> entries = new ArrayList<>();
  private Entry current;
  private final List<String> unwind = new ArrayList<>();

  private static final class Entry {
    final long address;
    final boolean isPublic;
    boolean multiple;
    final String head; // the rest of the FUNC / PUBLIC line after the address
    final List<String> inlines = new ArrayList<>();
    final List<String> lines = new ArrayList<>();
    final int order;

    Entry(long address, boolean isPublic, boolean multiple, String head, int order) {
      this.address = address;
      this.isPublic = isPublic;
      this.multiple = multiple;
      this.head = head;
      this.order = order;
    }
  }

  private static String str(byte[] buf, int off, int len) {
    return new String(buf, off, len, StandardCharsets.UTF_8);
  }

  @Override
  public void module(String os, String arch, String debugId, String name) {
    moduleLine = "MODULE " + os + " " + arch + " " + debugId + " " + name;
  }

  @Override
  public void codeId(String codeId, String codeFile) {
    infoLine = ("INFO CODE_ID " + codeId + " " + (codeFile == null ? "" : codeFile)).trim();
  }

  // the parameter size announced for the next FUNC or PUBLIC (SymHandler.*ParameterSize)
  private long paramAddress = -1;
  private long paramSize;

  @Override
  public void file(int id, byte[] buf, int off, int len) {
    files.putIfAbsent(id, str(buf, off, len));
  }

  @Override
  public void inlineOrigin(int id, byte[] buf, int off, int len) {
    origins.putIfAbsent(id, str(buf, off, len));
  }

  @Override
  public void funcParameterSize(long address, long parameterSize) {
    paramAddress = address;
    paramSize = parameterSize;
  }

  @Override
  public void func(
      boolean multiple, long address, long size, byte[] buf, int nameOff, int nameLen) {
    long param = paramAddress == address ? paramSize : 0;
    paramAddress = -1;
    current =
        new Entry(
            address,
            false,
            multiple,
            Long.toHexString(size)
                + " "
                + Long.toHexString(param)
                + " "
                + str(buf, nameOff, nameLen),
            entries.size());
    entries.add(current);
  }

  @Override
  public boolean line(long address, long size, int line, int fileId) {
    if (current == null) {
      return false;
    }
    current.lines.add(
        Long.toHexString(address) + " " + Long.toHexString(size) + " " + line + " " + fileId);
    return true;
  }

  @Override
  public boolean inline(
      int level, int callLine, int callFile, int origin, long[] ranges, int rangeCount) {
    if (current == null) {
      return false;
    }
    StringBuilder sb = new StringBuilder("INLINE ");
    sb.append(level).append(' ').append(Integer.toUnsignedString(callLine)).append(' ');
    sb.append(callFile).append(' ').append(origin);
    for (int i = 0; i < rangeCount; i++) {
      sb.append(' ').append(Long.toHexString(ranges[2 * i]));
      sb.append(' ').append(Long.toHexString(ranges[2 * i + 1]));
    }
    current.inlines.add(sb.toString());
    return true;
  }

  @Override
  public void publicSymbol(boolean multiple, long address, byte[] buf, int nameOff, int nameLen) {
    current = null;
    long param = paramAddress == address ? paramSize : 0;
    paramAddress = -1;
    entries.add(
        new Entry(
            address,
            true,
            multiple,
            Long.toHexString(param) + " " + str(buf, nameOff, nameLen),
            entries.size()));
  }

  @Override
  public void publicParameterSize(long address, long parameterSize) {
    funcParameterSize(address, parameterSize);
  }

  @Override
  public void badLine(long lineNumber, String reason) {}

  @Override
  public void stackCfiInit(long address, long size, byte[] buf, int off, int len) {
    unwind.add(
        "STACK CFI INIT "
            + Long.toHexString(address)
            + " "
            + Long.toHexString(size)
            + " "
            + str(buf, off, len));
  }

  @Override
  public void stackCfiDelta(long address, byte[] buf, int off, int len) {
    unwind.add("STACK CFI " + Long.toHexString(address) + " " + str(buf, off, len));
  }

  @Override
  public void stackWin(int type, long rva, long size, byte[] buf, int off, int len) {
    unwind.add(
        "STACK WIN "
            + Integer.toHexString(type)
            + " "
            + Long.toHexString(rva)
            + " "
            + Long.toHexString(size)
            + " "
            + str(buf, off, len));
  }

  public void writeTo(Writer out) throws IOException {
    if (moduleLine != null) {
      out.write(moduleLine + "\n");
    }
    if (infoLine != null) {
      out.write(infoLine + "\n");
    }
    for (var e : files.entrySet()) {
      out.write("FILE " + e.getKey() + " " + e.getValue() + "\n");
    }
    for (var e : origins.entrySet()) {
      String name = e.getValue().isBlank() ? "<name omitted>" : e.getValue();
      out.write("INLINE_ORIGIN " + e.getKey() + " " + name + "\n");
    }
    List<Entry> sorted = new ArrayList<>(entries);
    sorted.sort(
        Comparator.<Entry>comparingLong(e -> e.address)
            .thenComparing(e -> e.isPublic)
            .thenComparingInt(e -> e.order));
    Entry kept = null;
    List<Entry> result = new ArrayList<>(sorted.size());
    for (Entry e : sorted) {
      if (kept != null && kept.address == e.address) {
        if (kept.isPublic == e.isPublic) {
          kept.multiple = true; // a PUBLIC at a FUNC's address is just dropped
        }
        continue;
      }
      kept = e;
      result.add(e);
    }
    for (Entry e : result) {
      out.write(e.isPublic ? "PUBLIC " : "FUNC ");
      if (e.multiple) {
        out.write("m ");
      }
      out.write(Long.toHexString(e.address) + " " + e.head + "\n");
      for (String s : e.inlines) {
        out.write(s + "\n");
      }
      for (String s : e.lines) {
        out.write(s + "\n");
      }
    }
    for (String s : unwind) {
      out.write(s + "\n");
    }
  }
}
