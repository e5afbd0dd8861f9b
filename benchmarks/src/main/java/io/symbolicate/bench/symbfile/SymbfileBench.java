package io.symbolicate.bench.symbfile;

import io.symbolicate.symbols.nativecode.NativeFrame;
import io.symbolicate.symbols.nativecode.NativeSymbolizer;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.NativeTable;
import io.symbolicate.symbols.symbfile.SymToSymbfile;
import io.symbolicate.symbols.symbfile.SymbfileConverter;
import io.symbolicate.symbols.symbfile.SymbfileException;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The symbfile path against the .sym path in one run, one thread: converting ceph-osd (the .sym,
 * and the same symbols as a ranges symbfile written by the test writer, SymToSymbfile) into the
 * native table, both from memory; and lookups of the million addresses of ceph-osd.addrs.txt in
 * either table. The symbfile is written next to the .sym once ({@code .ranges.symbfile}).
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar SymbfileBench -f 1 -wi 2 -i 3
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx2g"})
@Warmup(iterations = 2)
@Measurement(iterations = 3)
public class SymbfileBench {
  private static final int BATCH = 1 << 16;

  @Param({"../bench-data/native/ceph-osd.sym"})
  public String sym;

  @Param({"../bench-data/native/ceph-osd.addrs.txt"})
  public String addrs;

  private byte[] symBytes;
  private byte[] symbfileBytes;
  private NativeSymbolizer symTable;
  private NativeSymbolizer symbfileTable;
  private long[] addresses;
  private int next;

  @Setup(Level.Trial)
  public void load() throws IOException, SymbfileException {
    Path symPath = Paths.get(sym);
    Path sf =
        symPath.resolveSibling(
            symPath.getFileName().toString().replaceFirst("\\.sym$", "") + ".ranges.symbfile");
    if (!Files.exists(sf)) {
      Path tmp = Files.createTempFile(sf.getParent(), "symbfile", ".tmp");
      try (InputStream in = Files.newInputStream(symPath);
          OutputStream out = Files.newOutputStream(tmp)) {
        SymToSymbfile.Stats s = SymToSymbfile.convert(in, new BufferedOutputStream(out, 1 << 16));
        System.out.printf("%n[symbfile] written: %s%n", s);
      }
      Files.move(tmp, sf, StandardCopyOption.ATOMIC_MOVE);
    }
    symBytes = Files.readAllBytes(symPath);
    symbfileBytes = Files.readAllBytes(sf);
    NativeTable a =
        NativeSymbols.convert(new ByteArrayInputStream(symBytes), NativeSymbols.Options.defaults());
    NativeTable b = convertSymbfileTable();
    symTable = NativeSymbolizer.inMemory(a);
    symbfileTable = NativeSymbolizer.inMemory(b);
    List<String> lines = Files.readAllLines(Paths.get(addrs));
    addresses =
        lines.stream()
            .filter(s -> !s.isBlank())
            .mapToLong(s -> Long.parseUnsignedLong(s.trim(), 16))
            .toArray();
    int same = 0;
    int found = 0;
    for (long x : addresses) {
      NativeFrame fa = symTable.lookup(x);
      NativeFrame fb = symbfileTable.lookup(x);
      found += fa != null && !fa.fromPublic() ? 1 : 0;
      same +=
          fa != null
                  && !fa.fromPublic()
                  && fb != null
                  && fa.function().equals(fb.function())
                  && fa.inlines().size() == fb.inlines().size()
              ? 1
              : 0;
    }
    System.out.printf(
        "%n[symbfile] .sym %d bytes, symbfile %d bytes; FUNCs %d / %d; %d addresses, %d in FUNCs, "
            + "%d with the same function and inline depth from both tables%n",
        symBytes.length,
        symbfileBytes.length,
        a.nativeHeader().functionCount(),
        b.nativeHeader().functionCount(),
        addresses.length,
        found,
        same);
  }

  private NativeTable convertSymbfileTable() throws IOException, SymbfileException {
    return SymbfileConverter.convert(
        new SymbfileConverter.Module("ceph-osd", "x86_64", null),
        new ByteArrayInputStream(symbfileBytes));
  }

  @Benchmark
  public long convertSym() throws IOException {
    long[] bytes = new long[1];
    NativeSymbols.convert(
        new ByteArrayInputStream(symBytes),
        NativeSymbols.Options.defaults(),
        page -> bytes[0] += page.bytes().length);
    return bytes[0];
  }

  @Benchmark
  public long convertSymbfile() throws IOException, SymbfileException {
    long[] bytes = new long[1];
    try (SymbfileConverter c =
        new SymbfileConverter(new SymbfileConverter.Module("ceph-osd", "x86_64", null))) {
      c.add(new ByteArrayInputStream(symbfileBytes));
      c.finish(page -> bytes[0] += page.bytes().length);
    }
    return bytes[0];
  }

  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  @OperationsPerInvocation(BATCH)
  public long lookupsSym() {
    return lookups(symTable);
  }

  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  @OperationsPerInvocation(BATCH)
  public long lookupsSymbfile() {
    return lookups(symbfileTable);
  }

  private long lookups(NativeSymbolizer s) {
    long acc = 0;
    long[] a = addresses;
    int i = next;
    for (int k = 0; k < BATCH; k++) {
      NativeFrame f = s.lookup(a[i]);
      if (f != null) {
        acc += f.functionBase() + f.inlines().size() + (f.line() == null ? 0 : f.line());
      }
      if (++i == a.length) {
        i = 0;
      }
    }
    next = i;
    return acc;
  }
}
