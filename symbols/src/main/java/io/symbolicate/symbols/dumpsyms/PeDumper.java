package io.symbolicate.symbols.dumpsyms;

import io.symbolicate.symbols.cfi.DwarfCfiReader;
import io.symbolicate.symbols.cfi.PeUnwindReader;
import io.symbolicate.symbols.demangle.MsvcDemangler;
import io.symbolicate.symbols.nativecode.SymHandler;
import io.symbolicate.symbols.objects.ObjectIdentity;
import io.symbolicate.symbols.objects.ObjectSymbol;
import io.symbolicate.symbols.objects.PeCodeView;
import io.symbolicate.symbols.objects.PeFile;
import io.symbolicate.symbols.objects.PeIdentity;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A PE image dumped without its PDB, as Breakpad's {@code dump_syms.exe} does when no PDB is found
 * (its PE-only writer) and as Symbolicator uses a bare executable: MODULE windows (the image's
 * arch, the debug id and PDB name of its CodeView record), INFO CODE_ID, a PUBLIC for each named
 * export (C++ names demangled as Breakpad writes them; forwarders left out), and STACK CFI from
 * {@code .pdata} (x64, arm64). No FUNC or line records: those are in the PDB.
 */
final class PeDumper {
  private PeDumper() {}

  static DumpSyms.Report dump(Path file, SymHandler out) throws IOException, DumpSymsException {
    PeFile pe = PeFile.open(file);
    PeCodeView cv =
        pe.codeView()
            .orElseThrow(
                () ->
                    new DumpSymsException(
                        file + ": a PE image without a CodeView record has no debug id"));
    ObjectIdentity id = PeIdentity.of(pe);
    out.module("windows", pe.arch(), cv.debugId(), cv.fileName());
    out.codeId(pe.breakpadCodeId(), file.getFileName().toString());
    List<String> notes = new ArrayList<>();
    List<ObjectSymbol> exports = pe.exports();
    for (ObjectSymbol s : exports) {
      String name = s.name();
      if (name.startsWith("?")) {
        name = MsvcDemangler.demangleOrSelf(name, MsvcDemangler.Style.BREAKPAD);
      }
      byte[] b = name.getBytes(StandardCharsets.UTF_8);
      out.publicSymbol(false, s.address(), b, 0, b.length);
    }
    notes.add(exports.size() + " exports as PUBLIC records (no PDB: no FUNC or line records)");
    DwarfCfiReader.Summary unwind = PeUnwindReader.read(pe, out);
    return new DumpSyms.Report(id, file, null, unwind, notes);
  }
}
