package io.symbolicate.bench.minidump;

import io.symbolicate.symbols.minidump.DumpBuilder;
import io.symbolicate.symbols.minidump.Minidump;
import io.symbolicate.symbols.minidump.MinidumpException;
import io.symbolicate.symbols.minidump.Module;
import io.symbolicate.symbols.minidump.walk.CodeModule;
import io.symbolicate.symbols.minidump.walk.ModuleSymbols;
import io.symbolicate.symbols.minidump.walk.SymbolDirectory;
import io.symbolicate.symbols.minidump.walk.SymbolSupplier;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A generated Linux amd64 dump for the walk benchmarks: one crashed thread whose stack is
 * {@link #FRAMES} frames deep over {@link #MODULES} modules, every caller found by STACK CFI
 * (a push of rbp, so each frame restores rbp and takes 16 bytes), plus each module's Breakpad
 * .sym (FUNC, LINE and STACK CFI records of {@link #FUNCTIONS} functions). The walk ends at a
 * zero return address after the last frame.
 */
public final class SyntheticDump {
  public static final int MODULES = 12;
  public static final int FRAMES = 30;
  public static final int FUNCTIONS = 2000;
  static final long FIRST_BASE = 0x7f0000000000L;
  static final long MODULE_SIZE = 0x100000;
  static final long FUNCTION_SIZE = 0x80;
  static final long STACK = 0x7ffd00000000L;
  static final int STACK_SIZE = 0x1000;
  public static final int MAX_STACK_SIZE = 1 << 20;
  static final long THREAD_ID = 4242;

  private SyntheticDump() {}

  static long base(int module) {
    return FIRST_BASE + module * MODULE_SIZE * 2;
  }

  static String codeFile(int module) {
    return "/usr/lib/libbench" + module + ".so";
  }

  /** Frame k runs in module k % MODULES, in a function chosen by k. */
  static long functionAddress(int frame) {
    return base(frame % MODULES) + ((frame * 97L) % FUNCTIONS) * FUNCTION_SIZE;
  }

  static byte[] buildId(int module) {
    byte[] id = new byte[20];
    for (int i = 0; i < id.length; i++) {
      id[i] = (byte) (0x11 * (i + 1) + module);
    }
    return id;
  }

  public static byte[] dump() {
    return dump(STACK_SIZE);
  }

  /**
   * The same dump with a crashed thread's stack of {@code stackBytes} (at least {@link #STACK_SIZE},
   * at most {@link #MAX_STACK_SIZE}): the words past the first {@link #STACK_SIZE} are pseudo-random data that point
   * into no module, as a real stack's locals do, so the dump has a realistic size (a 96 KB stack
   * makes it about 100 KB) and the same walk.
   */
  public static byte[] dump(int stackBytes) {
    return dump(stackBytes, 0);
  }

  /** {@link #dump(int)} with the stack's data drawn from {@code seed}: distinct bytes, the same walk. */
  public static byte[] dump(int stackBytes, long seed) {
    if (stackBytes < STACK_SIZE || stackBytes > MAX_STACK_SIZE || stackBytes % 16 != 0) {
      throw new IllegalArgumentException(
          "stack of "
              + stackBytes
              + " bytes: a multiple of 16 from "
              + STACK_SIZE
              + " to "
              + MAX_STACK_SIZE);
    }
    DumpBuilder d = new DumpBuilder();
    ByteBuffer stack = DumpBuilder.le(stackBytes);
    SplittableRandom random = new SplittableRandom(seed);
    for (int at = STACK_SIZE; at + 8 <= stackBytes; at += 8) { // dump() stays as it was
      stack.putLong(at, random.nextLong(1L << 40)); // below every module's base and the stack
    }
    // frame k's stack pointer is STACK + 16k: [saved rbp, return address into frame k+1]
    for (int k = 0; k < FRAMES; k++) {
      long at = 16L * k;
      stack.putLong((int) at, STACK + at + 16);
      stack.putLong((int) at + 8, k + 1 < FRAMES ? functionAddress(k + 1) + 0x25 : 0);
    }
    int stackRva = d.blob(stack.array());
    int ctx = d.amd64Context(functionAddress(0) + 0x10, STACK, STACK + 16);
    ByteBuffer threads = DumpBuilder.le(4 + 48).putInt(0, 1);
    DumpBuilder.thread(threads, 4, THREAD_ID, STACK, stackBytes, stackRva, ctx);
    ByteBuffer modules = DumpBuilder.le(4 + 108 * MODULES).putInt(0, MODULES);
    for (int m = 0; m < MODULES; m++) {
      int nameRva = d.string(codeFile(m));
      byte[] id = buildId(m);
      int cvRva = d.blob(DumpBuilder.le(4 + id.length).putInt(0x4270454c).put(id).array());
      int at = 4 + 108 * m;
      modules
          .putLong(at, base(m))
          .putInt(at + 8, (int) MODULE_SIZE)
          .putInt(at + 20, nameRva)
          .putInt(at + 76, 4 + id.length)
          .putInt(at + 80, cvRva);
    }
    d.stream(Minidump.SYSTEM_INFO, DumpBuilder.systemInfoLinuxAmd64());
    d.stream(Minidump.THREAD_LIST, threads.array());
    d.stream(Minidump.MODULE_LIST, modules.array());
    d.stream(Minidump.EXCEPTION, d.exception(THREAD_ID, 11, ctx));
    return d.build();
  }

  /** Module {@code m}'s .sym: a FUNC, a LINE and two STACK CFI records per function. */
  static String sym(int m, String debugId) {
    StringBuilder s = new StringBuilder(FUNCTIONS * 160);
    String name = "libbench" + m + ".so";
    s.append("MODULE Linux x86_64 ").append(debugId).append(' ').append(name).append('\n');
    s.append("FILE 0 /src/bench").append(m).append(".c\n");
    for (int f = 0; f < FUNCTIONS; f++) {
      String a = Long.toHexString(f * FUNCTION_SIZE);
      s.append("FUNC ")
          .append(a)
          .append(" 80 0 bench")
          .append(m)
          .append("_function_")
          .append(f)
          .append('\n');
      s.append(a).append(" 80 ").append(10 + f).append(" 0\n");
    }
    for (int f = 0; f < FUNCTIONS; f++) {
      long a = f * FUNCTION_SIZE;
      s.append("STACK CFI INIT ")
          .append(Long.toHexString(a))
          .append(" 80 .cfa: $rsp 8 + .ra: .cfa -8 + ^\n");
      s.append("STACK CFI ")
          .append(Long.toHexString(a + 1))
          .append(" .cfa: $rsp 16 + $rbp: .cfa -16 + ^\n");
    }
    return s.toString();
  }

  /** Every module's .sym by code file, with the debug ids the dump gives them. */
  public static Map<String, String> symbolFiles() {
    Map<String, String> out = new HashMap<>();
    try {
      Minidump d = Minidump.read(dump());
      for (int m = 0; m < MODULES; m++) {
        Module mod = d.modules().get(m);
        out.put(mod.codeFile(), sym(m, mod.debugId()));
      }
    } catch (MinidumpException e) {
      throw new IllegalStateException("the generated dump does not read: " + e.getMessage(), e);
    }
    return out;
  }

  /** The modules' symbols, converted once to tables in memory. */
  public static SymbolSupplier symbols() {
    Map<String, ModuleSymbols> tables = new HashMap<>();
    for (Map.Entry<String, String> e : symbolFiles().entrySet()) {
      try {
        tables.put(
            e.getKey(),
            SymbolDirectory.of(
                NativeSymbolizer.inMemory(
                    NativeSymbols.convert(
                        new ByteArrayInputStream(e.getValue().getBytes(StandardCharsets.UTF_8)),
                        NativeSymbols.Options.defaults()))));
      } catch (IOException x) {
        throw new UncheckedIOException(x);
      }
    }
    return m -> tables.get(m.codeFile());
  }

  /** Writes {@code generated.dmp} and a Breakpad symbol directory {@code symbols/} under {@code dir}. */
  public static Path writeTo(Path dir) throws IOException, MinidumpException {
    Files.createDirectories(dir);
    Path dmp = dir.resolve("generated.dmp");
    byte[] bytes = dump();
    Files.write(dmp, bytes);
    SymbolDirectory layout = new SymbolDirectory(dir.resolve("symbols"));
    Map<String, String> syms = symbolFiles();
    for (Module m : Minidump.read(bytes).modules()) {
      Path p =
          layout.pathFor(
              new CodeModule(
                  m.base(),
                  m.size(),
                  m.codeFile(),
                  m.codeId(),
                  m.debugFile(),
                  m.debugId(),
                  m.version(),
                  false));
      Files.createDirectories(p.getParent());
      Files.writeString(p, syms.get(m.codeFile()), StandardCharsets.UTF_8);
    }
    return dmp;
  }
}
