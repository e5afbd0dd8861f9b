package io.symbolicate.symbols.jvm;

import java.util.ArrayList;
import java.util.List;

/** What {@link MappingParser} read from a mapping.txt, before it becomes a compact table. */
public final class ParsedMapping {
  /** Header facts (from {@code # key: value} comments and the R8 map version metadata). */
  public String compiler;

  public String compilerVersion;
  public int minApi = -1;
  public String mapId;
  public String mapHash;
  public String mapVersion;

  public final List<ParsedClass> classes = new ArrayList<>();

  /** Lines that were not understood and were skipped. */
  public int malformedLines;

  /** First malformed line (1-based) and why, for error messages. */
  public int firstMalformedLine;

  public String firstMalformedReason;
  public int fieldCount;
  public int methodLineCount;
  public int duplicateClasses;
  public long lineCount;

  void malformed(long lineNo, String reason) {
    if (malformedLines++ == 0) {
      firstMalformedLine = (int) Math.min(lineNo, Integer.MAX_VALUE);
      firstMalformedReason = reason;
    }
  }

  /** One {@code original -> obfuscated:} block. */
  public static final class ParsedClass {
    public final String original;
    public final String obfuscated;
    public String sourceFile;
    public boolean synthesized;
    public final List<ParsedMember> members = new ArrayList<>();

    ParsedClass(String original, String obfuscated) {
      this.original = original;
      this.obfuscated = obfuscated;
    }
  }

  /** One method line of a class block. */
  public static final class ParsedMember {
    /** Obfuscated line range, or -1 when the line has none. */
    public int obfStart = -1;

    public int obfEnd = -1;

    /** Original line range; -1 when absent. */
    public int origStart = -1;

    public int origEnd = -1;

    /** Class the original method belongs to when it differs from the block's class (inlining). */
    public String origClass;

    public String name;

    /**
     * 64-bit hash of "returnType [class.]name(args)" as written: tells overloads apart (for
     * method-level metadata and R8's one-chain-per-method rule) without keeping the strings.
     */
    public long signature;

    public String obfName;
    public boolean synthesized;
    public boolean outline;
    public List<RewriteRule> rules;

    /** Flattened (outlinePosition, callsiteLine) pairs from outlineCallsite metadata. */
    public int[] outlinePositions;
  }
}
