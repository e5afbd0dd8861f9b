package io.symbolicate.bench.nativecode;

import com.sun.management.OperatingSystemMXBean;
import io.symbolicate.symbols.dumpsyms.DebugFileTables;
import io.symbolicate.symbols.dumpsyms.DumpSyms;
import io.symbolicate.symbols.dumpsyms.DumpSymsException;
import io.symbolicate.symbols.dumpsyms.SymWriter;
import io.symbolicate.symbols.nativecode.NativeSymbols;
import io.symbolicate.symbols.nativecode.NativeTable;
import java.io.File;
import java.io.IOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Issue 45's PDB conversion figures (scripts/pdb-bench.sh, docs/benchmarks.md "PDB conversion"):
 * for each PDB, in turns and in one run, {@code llvm-pdbutil-19 dump -l -symbols PDB} (a process,
 * output discarded), our conversion of the PDB into the native table with inlines ({@link
 * DebugFileTables#convert}, as {@code native lookup --sym FILE.pdb}) and our conversion of the
 * {@code .sym} our dump-syms {@code --inlines} writes from the same PDB ({@link
 * NativeSymbols#convert(Path, NativeSymbols.Options)}). Wall time and CPU time (ours: the whole
 * JVM's, GC and JIT threads included; llvm-pdbutil's: user + sys from {@code /usr/bin/time}),
 * medians of the timed rounds after two warm-up rounds of ours.
 *
 * <pre>
 * java -Xmx2g -cp benchmarks/target/benchmarks.jar \
 *   io.symbolicate.bench.nativecode.PdbConvertProbe 5 FILE.pdb...
 * </pre>
 */
public final class PdbConvertProbe {
  private static final OperatingSystemMXBean OS =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  private PdbConvertProbe() {}

  /** Wall and CPU milliseconds of one run. */
  private record Time(double wall, double cpu) {}

  public static void main(String[] args) throws Exception {
    int runs = Integer.parseInt(args[0]);
    for (int i = 1; i < args.length; i++) {
      measure(Paths.get(args[i]), runs);
    }
  }

  private static void measure(Path pdb, int runs) throws Exception {
    Path sym = Files.createTempFile("pdb-bench", ".sym");
    try {
      SymWriter w = new SymWriter();
      DumpSyms.dump(pdb, new DumpSyms.Options(true, null, null), w);
      try (Writer out = Files.newBufferedWriter(sym, StandardCharsets.UTF_8)) {
        w.writeTo(out);
      }
      System.out.printf(
          "%s: %,d bytes; its .sym (dump-syms --inlines): %,d bytes%n",
          pdb.getFileName(), Files.size(pdb), Files.size(sym));
      long[] sizes = new long[2];
      for (int i = 0; i < 2; i++) {
        sizes[0] = pages(convertPdb(pdb));
        sizes[1] = pages(NativeSymbols.convert(sym, NativeSymbols.Options.defaults()));
      }
      System.out.printf(
          "  tables: from the PDB %,d bytes, from the .sym %,d bytes%n", sizes[0], sizes[1]);
      List<Time> pdbutil = new ArrayList<>();
      List<Time> ours = new ArrayList<>();
      List<Time> fromSym = new ArrayList<>();
      for (int i = 0; i < runs; i++) {
        pdbutil.add(pdbutil(pdb));
        ours.add(timed(() -> convertPdb(pdb)));
        fromSym.add(timed(() -> NativeSymbols.convert(sym, NativeSymbols.Options.defaults())));
        System.out.printf(
            "  round %d: pdbutil %.0f ms (cpu %.0f), pdb %.0f ms (cpu %.0f), sym %.0f ms (cpu %.0f)%n",
            i + 1,
            pdbutil.get(i).wall(),
            pdbutil.get(i).cpu(),
            ours.get(i).wall(),
            ours.get(i).cpu(),
            fromSym.get(i).wall(),
            fromSym.get(i).cpu());
      }
      double pw = median(pdbutil, true);
      double pc = median(pdbutil, false);
      double ow = median(ours, true);
      double oc = median(ours, false);
      double sw = median(fromSym, true);
      double sc = median(fromSym, false);
      System.out.printf(
          "  medians of %d: llvm-pdbutil dump -l -symbols %.0f ms (cpu %.0f); PDB -> table %.0f ms"
              + " (cpu %.0f); .sym -> table %.0f ms (cpu %.0f)%n",
          runs, pw, pc, ow, oc, sw, sc);
      System.out.printf(
          "  ratios: PDB/llvm-pdbutil wall %.3f cpu %.3f (target < 1); PDB/.sym wall %.3f cpu"
              + " %.3f (target <= 1.5)%n",
          ow / pw, oc / pc, ow / sw, oc / sc);
    } finally {
      Files.deleteIfExists(sym);
    }
  }

  private static NativeTable convertPdb(Path pdb) throws IOException, DumpSymsException {
    return DebugFileTables.convert(
            pdb, new DumpSyms.Options(true, null, null), NativeSymbols.Options.defaults())
        .table();
  }

  private static long pages(NativeTable t) {
    return t.pages().stream().mapToLong(p -> p.bytes().length).sum();
  }

  interface Conversion {
    NativeTable run() throws Exception;
  }

  private static Time timed(Conversion c) throws Exception {
    long w0 = System.nanoTime();
    long c0 = OS.getProcessCpuTime();
    NativeTable t = c.run();
    double cpu = (OS.getProcessCpuTime() - c0) / 1e6;
    double wall = (System.nanoTime() - w0) / 1e6;
    if (t.pages().isEmpty()) {
      throw new IllegalStateException("an empty table");
    }
    return new Time(wall, cpu);
  }

  /** One {@code llvm-pdbutil-19 dump -l -symbols}, its output discarded, under /usr/bin/time. */
  private static Time pdbutil(Path pdb) throws IOException, InterruptedException {
    Path times = Files.createTempFile("pdbutil", ".time");
    try {
      ProcessBuilder pb =
          new ProcessBuilder(
                  "/usr/bin/time",
                  "-f",
                  "%U %S",
                  "-o",
                  times.toString(),
                  "llvm-pdbutil-19",
                  "dump",
                  "-l",
                  "-symbols",
                  pdb.toString())
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.to(new File("/dev/null")));
      long w0 = System.nanoTime();
      int rc = pb.start().waitFor();
      double wall = (System.nanoTime() - w0) / 1e6;
      if (rc != 0) {
        throw new IllegalStateException("llvm-pdbutil-19 exited with " + rc);
      }
      List<String> lines = Files.readAllLines(times);
      String[] f = lines.get(lines.size() - 1).trim().split(" ");
      return new Time(wall, (Double.parseDouble(f[0]) + Double.parseDouble(f[1])) * 1000);
    } finally {
      Files.deleteIfExists(times);
    }
  }

  private static double median(List<Time> times, boolean wall) {
    double[] v = times.stream().mapToDouble(t -> wall ? t.wall() : t.cpu()).toArray();
    Arrays.sort(v);
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }
}
