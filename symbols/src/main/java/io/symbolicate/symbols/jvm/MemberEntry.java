package io.symbolicate.symbols.jvm;

/**
 * One method line of a class as the retracer uses it. Line fields are -1 when absent.
 *
 * @param declaredFile the {@code sourceFile} the mapping declares for the method's class, or null
 * @param methodId identifies the original method (class, name, signature) within its class
 * @param chainStart true when this entry begins a new inline chain (or stands alone)
 */
public record MemberEntry(
    int obfStart,
    int obfEnd,
    int origStart,
    int origEnd,
    String origClass,
    String name,
    String declaredFile,
    int methodId,
    boolean synthesized,
    boolean chainStart,
    RewriteRule[] rules,
    int[] outlinePositions) {

  static final RewriteRule[] NO_RULES = new RewriteRule[0];

  /** Has an obfuscated range other than 0:0 (R8 uses 0:0 for "no position"). */
  public boolean hasLineRange() {
    return obfEnd > 0;
  }

  public boolean covers(int line) {
    return obfEnd > 0 && line >= obfStart && line <= obfEnd;
  }

  /** Original line for an obfuscated line inside this entry's range. */
  public int originalLine(int line) {
    if (origStart < 0) {
      return 0;
    }
    if (origEnd < 0 || origEnd == origStart) {
      return origStart;
    }
    long l = (long) origStart + (line - obfStart);
    return l > Integer.MAX_VALUE ? origStart : (int) l;
  }

  /** Callsite line for an outline position, or -1. */
  public int outlineCallsite(int position) {
    if (outlinePositions == null) {
      return -1;
    }
    for (int i = 0; i < outlinePositions.length; i += 2) {
      if (outlinePositions[i] == position) {
        return outlinePositions[i + 1];
      }
    }
    return -1;
  }
}
