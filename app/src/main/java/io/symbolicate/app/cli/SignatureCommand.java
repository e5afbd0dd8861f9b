package io.symbolicate.app.cli;

import io.symbolicate.signatures.CrashDataSigner;
import io.symbolicate.signatures.SignatureGenerator;
import io.symbolicate.signatures.SignatureInputException;
import io.symbolicate.signatures.SignatureListException;
import io.symbolicate.signatures.SignatureLists;
import io.symbolicate.signatures.SignatureResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code symbolicator signature}: Socorro's crash signature of crash data, as siggen's signify prints it. */
@Command(
    name = "signature",
    mixinStandardHelpOptions = true,
    description = {
      "Print the crash signature of crash data in siggen's input schema (FILE, or stdin)",
      "as {\"signature\": ..., \"proto_signature\": ..., \"notes\": [...]} (docs/signatures.md)."
    })
final class SignatureCommand implements Callable<Integer> {
  /** Exit status for crash data that cannot be read or is not crash data. */
  static final int EXIT_BAD_INPUT = 1;

  /** Exit status for signature lists that cannot be loaded. */
  static final int EXIT_BAD_LISTS = 2;

  @Spec CommandSpec spec;

  @Option(
      names = "--lists",
      paramLabel = "DIR",
      description =
          "frame lists in the layout of siggen's siglists/ folder (default: the built-in ones)")
  Path lists;

  @Option(
      names = {"-v", "--verbose"},
      description = "also print the rules' debug log")
  boolean verbose;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "FILE",
      description = "crash data as JSON (default: stdin)")
  String file;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    SignatureGenerator generator;
    try {
      generator =
          new SignatureGenerator(
              lists == null ? SignatureLists.defaults() : SignatureLists.load(lists));
    } catch (SignatureListException e) {
      err.println("signature lists: " + e.getMessage());
      return EXIT_BAD_LISTS;
    }
    SignatureResult result;
    try {
      if (file == null || file.equals("-")) {
        result = CrashDataSigner.sign(generator, System.in);
      } else {
        try (InputStream in = Files.newInputStream(Path.of(file))) {
          result = CrashDataSigner.sign(generator, in);
        }
      }
    } catch (NoSuchFileException e) {
      err.println("no such file: " + file);
      return EXIT_BAD_INPUT;
    } catch (IOException e) {
      err.println("cannot read " + (file == null ? "stdin" : file) + ": " + e.getMessage());
      return EXIT_BAD_INPUT;
    } catch (SignatureInputException e) {
      err.println("bad crash data: " + e.getMessage());
      return EXIT_BAD_INPUT;
    }
    CrashDataSigner.print(result, verbose, System.out);
    return 0;
  }
}
