package io.symbolicate.app.cli;

import io.symbolicate.signatures.CrashDataSigner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code symbolicator signature}: Socorro's crash signature of crash data, as siggen's signify prints it. */
@Command(
    name = "signature",
    mixinStandardHelpOptions = true,
    description = {
      "Print the crash signature of crash data in siggen's input schema (FILE, or stdin)",
      "as {\"signature\": ..., \"proto_signature\": ..., \"notes\": [...]} (docs/signatures.md)."
    })
final class SignatureCommand implements Callable<Integer> {
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
    List<String> args = new ArrayList<>();
    if (lists != null) {
      args.add("--lists");
      args.add(lists.toString());
    }
    if (verbose) {
      args.add("--verbose");
    }
    if (file != null) {
      args.add(file);
    }
    return CrashDataSigner.run(args.toArray(String[]::new), System.in, System.out, System.err);
  }
}
