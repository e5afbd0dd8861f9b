package io.symbolicate.app.cli;

import io.symbolicate.signatures.CrashDataSigner;
import io.symbolicate.signatures.SignatureGenerator;
import io.symbolicate.signatures.SignatureInputException;
import io.symbolicate.signatures.SignatureListException;
import io.symbolicate.signatures.SignatureLists;
import io.symbolicate.signatures.SignatureResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code symbolicator signature}: Socorro's crash signature of crash data, as siggen's signify prints it. */
@Command(
    name = "signature",
    mixinStandardHelpOptions = true,
    description = {
      "Print the crash signature of crash data in siggen's input schema (FILE, or stdin) as"
          + " {\"signature\": ..., \"proto_signature\": ..., \"notes\": [...]}"
          + " (docs/signatures.md).",
      "Several files (or directories of *.json files, or --files-from a list of paths) are"
          + " signed on --threads threads: one NAME.signature.json per file into --output-dir,"
          + " or one JSON line per file on stdout ({\"input\", \"report\"} or"
          + " {\"input\", \"error\"})."
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
      arity = "0..*",
      paramLabel = "FILE",
      description = "crash data as JSON, or directories of *.json files (default: stdin)")
  List<String> files = new ArrayList<>();

  @Option(
      names = "--files-from",
      paramLabel = "LIST",
      description = "also sign the files listed in LIST, one path a line (- for stdin)")
  Path filesFrom;

  @Mixin BatchOptions batch;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    SignatureLists signatureLists;
    try {
      signatureLists = lists == null ? SignatureLists.defaults() : SignatureLists.load(lists);
    } catch (SignatureListException e) {
      err.println("signature lists: " + e.getMessage());
      return EXIT_BAD_LISTS;
    }
    boolean single =
        filesFrom == null
            && batch.outputDir == null
            && (files.isEmpty()
                || files.size() == 1
                    && (files.get(0).equals("-") || !Files.isDirectory(Path.of(files.get(0)))));
    if (!single) {
      if (files.contains("-")) {
        throw new UserException(
            "- is crash data on stdin, for one input: list many with --files-from -");
      }
      return batch(signatureLists);
    }
    SignatureGenerator generator = new SignatureGenerator(signatureLists);
    String file = files.isEmpty() ? null : files.get(0);
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

  /** Signs many files, one generator a thread over the same lists. */
  private int batch(SignatureLists signatureLists) {
    List<Path> inputs = new ArrayList<>();
    if (filesFrom != null) {
      try (InputStream in =
          filesFrom.toString().equals("-") ? System.in : Files.newInputStream(filesFrom)) {
        inputs.addAll(Batch.inputs(List.of("-"), in));
      } catch (IOException e) {
        throw new UserException("cannot read --files-from " + filesFrom + ": " + e.getMessage());
      }
    }
    inputs.addAll(Batch.inputs(files, System.in, ".json"));
    ThreadLocal<SignatureGenerator> generators =
        ThreadLocal.withInitial(() -> new SignatureGenerator(signatureLists));
    return Batch.run(
        inputs,
        path -> {
          SignatureResult result;
          try (InputStream in = Files.newInputStream(path)) {
            result = CrashDataSigner.sign(generators.get(), in);
          } catch (SignatureInputException e) {
            throw new UserException("bad crash data: " + e.getMessage());
          }
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          PrintStream print = new PrintStream(out, false, StandardCharsets.UTF_8);
          CrashDataSigner.print(result, false, print);
          print.flush();
          return out.toString(StandardCharsets.UTF_8);
        },
        batch.options(".signature.json", true),
        System.out,
        spec.commandLine().getErr());
  }
}
