// Prints every sequence point Mono.Cecil reads from an assembly's Portable PDB (the PDB given
// as the second argument, else the one the assembly embeds), one tab-separated line each:
// method row, IL offset, start line, start column, end line, end column, hidden, document, method.
using System;
using System.IO;
using Mono.Cecil;
using Mono.Cecil.Cil;

static class CecilSequencePoints {
  static void Main(string[] args) {
    // some fixture pairs come from different builds (ids differ); their points still read
    var p = new ReaderParameters { ReadSymbols = true, ThrowIfSymbolsAreNotMatching = false };
    if (args.Length > 1) {
      p.SymbolReaderProvider = new PortablePdbReaderProvider();
      p.SymbolStream = File.OpenRead(args[1]);
    } else {
      p.SymbolReaderProvider = new DefaultSymbolReaderProvider(true);
    }
    var module = ModuleDefinition.ReadModule(args[0], p);
    foreach (var type in module.GetTypes()) {
      foreach (var m in type.Methods) {
        if (!m.DebugInformation.HasSequencePoints) continue;
        foreach (var sp in m.DebugInformation.SequencePoints) {
          Console.WriteLine("{0}\t{1}\t{2}\t{3}\t{4}\t{5}\t{6}\t{7}\t{8}",
            m.MetadataToken.RID, sp.Offset, sp.StartLine, sp.StartColumn, sp.EndLine,
            sp.EndColumn, sp.IsHidden ? 1 : 0, sp.Document.Url,
            type.FullName.Replace('/', '+') + "." + m.Name);
        }
      }
    }
  }
}
