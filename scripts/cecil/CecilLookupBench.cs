// The Mono.Cecil side of scripts/dotnet-bench.sh: per round, read the assembly with its Portable
// PDB (load) and look up the given (method row, IL offset) frames: the method by token, then the
// last sequence point at or before the offset. Prints the median frames per second of the rounds
// after the first ROUNDS/2 (warm-up).
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using Mono.Cecil;
using Mono.Cecil.Cil;

static class CecilLookupBench {
  static void Main(string[] args) {
    string dll = args[0], pdb = args[1];
    int rounds = int.Parse(args[2]), repeat = int.Parse(args[3]);
    var frames = new List<int[]>();
    foreach (var line in File.ReadAllLines(args[4])) {
      var f = line.Split(' ');
      frames.Add(new[] { int.Parse(f[0]), int.Parse(f[1]) });
    }
    var rates = new List<double>();
    long sink = 0;
    for (int r = 0; r < rounds; r++) {
      var sw = Stopwatch.StartNew();
      var p = new ReaderParameters { ReadSymbols = true, SymbolReaderProvider = new PortablePdbReaderProvider(), SymbolStream = File.OpenRead(pdb) };
      var module = ModuleDefinition.ReadModule(dll, p);
      long n = 0;
      for (int k = 0; k < repeat; k++) {
        foreach (var fr in frames) {
          var m = module.LookupToken(0x06000000 | fr[0]) as MethodDefinition;
          n++;
          if (m == null || !m.DebugInformation.HasSequencePoints) continue;
          var sps = m.DebugInformation.SequencePoints;
          int lo = 0, hi = sps.Count - 1, found = -1;
          while (lo <= hi) {
            int mid = (lo + hi) >> 1;
            if (sps[mid].Offset <= fr[1]) { found = mid; lo = mid + 1; } else hi = mid - 1;
          }
          if (found >= 0) sink += sps[found].StartLine;
        }
      }
      sw.Stop();
      module.Dispose();
      if (r >= rounds / 2) rates.Add(n / sw.Elapsed.TotalSeconds);
    }
    rates.Sort();
    Console.WriteLine("{0:F0} {1}", rates[rates.Count / 2], sink % 7);
  }
}
