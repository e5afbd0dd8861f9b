package io.symbolicate.signatures;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * siggen's {@code signify} as a library call: reads crash data (siggen's schema) from a file or
 * stdin and prints {@code {"signature": ..., "proto_signature": ..., "notes": [...]}} as signify
 * does. The CLI command {@code ./symbolicator signature [--lists DIR] [FILE]} calls
 * {@link #run}.
 */
public final class CrashDataSigner {
  public static final String USAGE =
      "usage: signature [--lists DIR] [--verbose] [FILE]\n"
          + "  Prints the crash signature of FILE (or stdin, or '-') in siggen's crash data schema.\n"
          + "  --lists DIR   signature lists in the layout of siggen's siglists/ (default: ours)\n"
          + "  --verbose     print how the signature was made before it";

  /** Exit codes of {@link #run}. */
  public static final int OK = 0;

  public static final int BAD_INPUT = 1;
  public static final int BAD_USAGE = 2;

  private CrashDataSigner() {}

  public static void main(String[] args) {
    System.exit(run(args, System.in, System.out, System.err));
  }

  /** Parses {@code [--lists DIR] [--verbose] [FILE]}, prints the result; returns an exit code. */
  public static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err) {
    Path lists = null;
    String file = null;
    boolean verbose = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--lists") || a.equals("--signature-list-dir")) {
        if (i + 1 >= args.length) {
          err.println(a + " needs a directory\n" + USAGE);
          return BAD_USAGE;
        }
        lists = Path.of(args[++i]);
      } else if (a.startsWith("--lists=")) {
        lists = Path.of(a.substring("--lists=".length()));
      } else if (a.equals("-v") || a.equals("--verbose")) {
        verbose = true;
      } else if (a.equals("-h") || a.equals("--help")) {
        out.println(USAGE);
        return OK;
      } else if (a.startsWith("-") && !a.equals("-")) {
        err.println("unknown option " + a + "\n" + USAGE);
        return BAD_USAGE;
      } else if (file == null) {
        file = a;
      } else {
        err.println("one FILE at most\n" + USAGE);
        return BAD_USAGE;
      }
    }
    SignatureGenerator generator;
    try {
      generator =
          new SignatureGenerator(
              lists == null ? SignatureLists.defaults() : SignatureLists.load(lists));
    } catch (SignatureListException e) {
      err.println("signature lists: " + e.getMessage());
      return BAD_USAGE;
    }
    SignatureResult result;
    try {
      if (file == null || file.equals("-")) {
        result = signify(generator, stdin);
      } else {
        try (InputStream in = Files.newInputStream(Path.of(file))) {
          result = signify(generator, in);
        }
      }
    } catch (NoSuchFileException e) {
      err.println("no such file: " + file);
      return BAD_INPUT;
    } catch (IOException e) {
      err.println("cannot read " + (file == null ? "stdin" : file) + ": " + e.getMessage());
      return BAD_INPUT;
    } catch (SignatureInputException e) {
      err.println("bad crash data: " + e.getMessage());
      return BAD_INPUT;
    }
    if (verbose) {
      for (String line : result.debugLog()) {
        out.println(line);
      }
    }
    out.println(result.toJson());
    return OK;
  }

  /** Reads crash data from {@code in} (bounded) and generates its signature. */
  public static SignatureResult signify(SignatureGenerator generator, InputStream in)
      throws IOException, SignatureInputException {
    return generator.generate(CrashDataJson.parse(in));
  }
}
