package io.symbolicate.symbols.dotnet;

import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Writes the seeds of {@link DotnetFuzzTests}: symbolic's small Portable PDBs (Async, Scopes,
 * SourceLink, EmbeddedSource; under 1.8 KB each), portable.pdb and the DLL that embeds one, and
 * mutants (a Document table claiming 2^24 rows, an embedded PDB claiming 4 GB); for the decoder,
 * every method's sequence-point blob of portable.pdb and Async.pdbx; for the table, the header
 * and 16-range pages of portable.pdb's table, and the Source Link sample's header and first page (Source
 * Link URLs). Run from the module
 * directory: {@code java -cp <test classpath> io.symbolicate.symbols.dotnet.DotnetFuzzSeeds}.
 */
final class DotnetFuzzSeeds {
  public static void main(String[] args) throws Exception {
    Path out =
        Paths.get(args.length > 0 ? args[0] : "src/test/resources")
            .resolve("io/symbolicate/symbols/dotnet/DotnetFuzzTestsInputs");
    Path symbolic = SharedFixtures.fixtures("difs").resolve("getsentry-symbolic");
    for (String name : new String[] {"Async", "Scopes", "SourceLink", "EmbeddedSource"}) {
      write(
          out, "portablePdb", name, Files.readAllBytes(symbolic.resolve("ppdb/" + name + ".pdbx")));
    }
    byte[] portable = Files.readAllBytes(symbolic.resolve("testutils/windows/portable.pdb"));
    write(out, "portablePdb", "portable", portable);
    byte[] dll =
        Files.readAllBytes(
            symbolic.resolve("testutils/windows/Sentry.Samples.Console.Basic-embedded-ppdb.dll"));
    write(out, "portablePdb", "embedded-ppdb-dll", dll);
    byte[] rows = portable.clone();
    PortablePdbHostileTest.putInt(rows, PortablePdbHostileTest.firstRowCount(rows), 0x00ffffff);
    write(out, "portablePdb", "portable-document-rows-2e24", rows);
    byte[] claim = dll.clone();
    int mpdb = PortablePdbHostileTest.indexOf(claim, new byte[] {'M', 'P', 'D', 'B'});
    PortablePdbHostileTest.putInt(claim, mpdb + 4, -1);
    write(out, "portablePdb", "embedded-ppdb-dll-4gb", claim);
    DotnetTable table = DotnetTable.build(PortablePdb.parse(portable), 16);
    write(out, "tableBytes", "portable-header", table.header());
    for (int i = 0; i < table.pages().size(); i++) {
      write(out, "tableBytes", "portable-page-" + i, table.pages().get(i).bytes());
    }
    // a table whose pages carry Source Link URLs and whose header has the flag set
    DotnetTable linked =
        DotnetTable.build(
            PortablePdb.parse(
                Files.readAllBytes(
                    symbolic.resolve(
                        "testutils/ppdb-sourcelink-sample/ppdb-sourcelink-sample.pdb"))),
            16);
    write(out, "tableBytes", "sourcelink-header", linked.header());
    write(out, "tableBytes", "sourcelink-page-0", linked.pages().get(0).bytes());
    blobs(out, "portable", PortablePdb.parse(portable));
    blobs(out, "async", PortablePdb.parse(Files.readAllBytes(symbolic.resolve("ppdb/Async.pdbx"))));
  }

  private static void blobs(Path out, String name, PortablePdb pdb) throws IOException {
    for (int m = 1; m <= pdb.methodCount(); m++) {
      byte[] blob = pdb.sequencePointBlob(m);
      if (blob.length == 0) {
        continue;
      }
      byte[] seed = new byte[blob.length + 1];
      seed[0] = (byte) (pdb.documentColumn(m) == 0 ? 0 : 1);
      System.arraycopy(blob, 0, seed, 1, blob.length);
      write(out, "sequencePoints", name + "-method-" + m, seed);
    }
  }

  private static void write(Path out, String target, String name, byte[] data) throws IOException {
    Path dir = out.resolve(target);
    Files.createDirectories(dir);
    Files.write(dir.resolve("seed-" + name), data);
  }
}
