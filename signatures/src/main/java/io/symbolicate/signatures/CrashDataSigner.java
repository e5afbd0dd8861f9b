package io.symbolicate.signatures;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;

/**
 * siggen's {@code signify} as library calls: the signature of crash data (siggen's schema) read
 * from a stream, and what signify prints for it. The CLI command {@code ./symbolicator signature
 * [--lists DIR] [FILE]} reads its file or stdin and calls them.
 */
public final class CrashDataSigner {
  private CrashDataSigner() {}

  /** Reads crash data from {@code in} (bounded) and generates its signature. */
  public static SignatureResult sign(SignatureGenerator generator, InputStream in)
      throws IOException, SignatureInputException {
    return generator.generate(CrashDataJson.parse(in));
  }

  /**
   * Prints {@code result} as signify does, {@code {"signature": ..., "proto_signature": ...,
   * "notes": [...]}}, preceded with {@code verbose} by how the signature was made (the rules'
   * debug log).
   */
  public static void print(SignatureResult result, boolean verbose, PrintStream out) {
    if (verbose) {
      for (String line : result.debugLog()) {
        out.println(line);
      }
    }
    out.println(result.toJson());
  }
}
