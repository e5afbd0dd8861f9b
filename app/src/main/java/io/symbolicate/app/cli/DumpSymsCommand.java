package io.symbolicate.app.cli;

import io.symbolicate.symbols.dumpsyms.DumpSyms;
import io.symbolicate.symbols.dumpsyms.DumpSymsException;
import io.symbolicate.symbols.dumpsyms.SymWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code symbolicator native dump-syms}: a Breakpad {@code .sym} from an ELF or Mach-O file. */
@Command(
    name = "dump-syms",
    mixinStandardHelpOptions = true,
    description = {
      "Writes a Breakpad .sym from an ELF or Mach-O file or a dSYM bundle, as Breakpad's and"
          + " Mozilla's dump_syms do: MODULE, INFO CODE_ID, FILE, INLINE_ORIGIN, FUNC, lines,"
          + " INLINE, PUBLIC, STACK CFI.",
      "Debug info comes from the file itself, from --debug-file, or from the file named by its"
          + " GNU debug link (beside it or in .debug/); unwind info and public symbols from"
          + " whichever has them.",
      "Records follow Mozilla's dump_syms; --breakpad writes them as Breakpad's own does."
    })
final class DumpSymsCommand implements Runnable {
  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "FILE",
      description = "ELF or Mach-O file, a dSYM, or a PDB.")
  Path file;

  @Parameters(
      index = "1",
      arity = "0..1",
      paramLabel = "IMAGE",
      description =
          "For a PDB: its .exe or .dll (else the one beside it), for INFO CODE_ID and the"
              + " STACK CFI of its .pdata; the same as --debug-file.")
  Path image;

  @Option(
      names = "--inlines",
      description = "Write INLINE_ORIGIN and INLINE records (Mozilla's --inlines).")
  boolean inlines;

  @Option(
      names = "--breakpad",
      description =
          "Write as Breakpad's dump_syms: a line record per line-table address, names from"
              + " DWARF only, no section publics, DW_CFA_undefined ignored (docs/native.md).")
  boolean breakpad;

  @Option(
      names = "--arch",
      paramLabel = "ARCH",
      description = "The slice of a fat (universal) Mach-O file: x86_64, arm64, ...")
  String arch;

  @Option(
      names = "--debug-file",
      paramLabel = "FILE",
      description = "A separate debug file (objcopy --only-keep-debug) for FILE.")
  Path debugFile;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "OUT",
      description = "Write the .sym here instead of standard output.")
  Path output;

  @Override
  public void run() {
    if (image != null) {
      if (debugFile != null) {
        throw new UserException("give the image either as IMAGE or as --debug-file");
      }
      debugFile = image;
    }
    if (debugFile != null && !Files.isRegularFile(debugFile)) {
      throw new UserException(debugFile + ": no such file");
    }
    SymWriter writer = new SymWriter();
    DumpSyms.Report report;
    try {
      report =
          DumpSyms.dump(
              file,
              new DumpSyms.Options(inlines, arch, debugFile)
                  .withDialect(breakpad ? DumpSyms.Dialect.BREAKPAD : DumpSyms.Dialect.MOZILLA),
              writer);
    } catch (DumpSymsException e) {
      throw new UserException(e.getMessage(), e);
    } catch (IOException e) {
      throw new UserException(file + ": " + e.getMessage(), e);
    }
    PrintWriter err = spec.commandLine().getErr();
    for (String note : report.notes()) {
      err.println("dump-syms: " + note);
    }
    if (report.unwind() != null && report.unwind().skipped() > 0) {
      err.println(
          "dump-syms: "
              + report.unwind().skipped()
              + " unwind entries skipped, e.g. "
              + report.unwind().reasons().get(0));
    }
    err.flush();
    try {
      if (output == null) {
        PrintWriter out = spec.commandLine().getOut();
        writer.writeTo(out);
        out.flush();
      } else {
        try (Writer out = Files.newBufferedWriter(output, StandardCharsets.UTF_8)) {
          writer.writeTo(out);
        }
      }
    } catch (IOException e) {
      throw new UserException((output == null ? "stdout" : output) + ": " + e.getMessage(), e);
    }
  }
}
