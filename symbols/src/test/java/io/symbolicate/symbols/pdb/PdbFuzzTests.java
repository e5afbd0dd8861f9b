package io.symbolicate.symbols.pdb;

import static io.symbolicate.symbols.testing.Fuzzing.check;
import static io.symbolicate.symbols.testing.Fuzzing.expect;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.symbolicate.symbols.dumpsyms.PdbDumper;
import io.symbolicate.symbols.dumpsyms.SymWriter;
import io.symbolicate.symbols.objects.ObjectIdentity;
import io.symbolicate.symbols.objects.PdbIdentity;
import io.symbolicate.symbols.testing.Fuzzing;
import java.io.StringWriter;
import java.util.function.Supplier;
import org.junit.jupiter.api.Timeout;

/**
 * The fuzz target of the MSF/PDB reader (docs/fuzzing.md). In every build it replays its corpus
 * under {@code src/test/resources/.../PdbFuzzTestsInputs/pdb/} (seeds written by {@link
 * PdbFuzzSeeds}); {@code scripts/fuzz.sh pdb} runs it coverage-guided.
 */
class PdbFuzzTests {
  /**
   * Bytes as a PDB: the MSF directory, identity, publics, every module's procedures, lines and
   * inline sites,
   * the IPI's names, then the whole {@code .sym} our dump_syms writes from it; or {@link
   * PdbFormatException}. The debug id has 33 to 40 digits; a module's lines lie in the stream
   * order the reader promises (each subsection's rows by address).
   */
  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void pdb(byte[] data) throws Exception {
    expect(
        data,
        () -> {
          PdbFile pdb = PdbFile.parse(data);
          ObjectIdentity id = PdbIdentity.of(pdb);
          int digits = id.debugId().length();
          check(digits >= 33 && digits <= 40, "debug id of " + digits + " digits");
          check(pdb.msf().streamCount() <= data.length / 4, "more streams than directory words");
          PdbSymbols.publics(pdb);
          PdbInlines.Exports exports = new PdbInlines.Exports(pdb, PdbLines.stringTable(pdb));
          PdbSignatures signatures = PdbSignatures.of(pdb);
          for (PdbModule m : pdb.modules()) {
            try {
              for (PdbProcedure p : PdbSymbols.procedures(pdb, m)) {
                signature(() -> signatures.staticFunction(p));
              }
              PdbLines.lines(pdb, m, PdbLines.stringTable(pdb));
              PdbInlines.read(pdb, m, PdbLines.stringTable(pdb), exports);
            } catch (PdbFormatException e) {
              // one module's damage; the dumper skips the module, the others still read
            }
          }
          PdbTypes ids = PdbTypes.ipi(pdb);
          check(ids.size() <= data.length / 4, "more type records than 4-byte units");
          for (int i = 0; i < Math.min(ids.size(), 1000); i++) {
            ids.name(0x1000 + i);
            long index = 0x1000 + i;
            signature(() -> signatures.inlinee(index));
            signature(() -> String.valueOf(signatures.size(index)));
          }
          SymWriter w = new SymWriter();
          PdbDumper.records(pdb, w, true);
          w.writeTo(new StringWriter());
        },
        PdbFormatException.class);
  }

  /** A signature, or its refusal: one name refused leaves the others (the dumper's bare name). */
  static void signature(Supplier<String> name) {
    try {
      String n = name.get();
      check(n == null || n.length() <= 2 * PdbSignatures.MAX_CHARS, "a name past the bound");
    } catch (PdbFormatException e) {
      // refused with its reason
    }
  }
}
