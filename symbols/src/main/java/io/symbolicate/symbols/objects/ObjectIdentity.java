package io.symbolicate.symbols.objects;

import io.symbolicate.symbols.id.DebugIdentifiers;
import java.util.Locale;
import java.util.Set;

/**
 * Who an object file is, as Breakpad and Symbolicator name it, so a module of a crash report
 * finds it: {@code debugId} in Breakpad's form (32 upper-case hex digits of the GUID, then the
 * age in hex, e.g. {@code 20AD60B0B4C68177552708AA192E77390}); {@code codeId} lower-case hex (the
 * ELF build id, the Mach-O UUID) or null when the file has none; {@code arch} as Breakpad's
 * MODULE line names it ({@code x86_64}, {@code x86}, {@code arm64}, {@code arm}, ...); {@code
 * loadAddress} the address the file's image expects to start at (its first loadable segment).
 */
public record ObjectIdentity(
    String fileFormat,
    String codeId,
    String debugId,
    String arch,
    ObjectKind kind,
    long loadAddress,
    Set<ObjectFeature> features) {
  public ObjectIdentity {
    features = Set.copyOf(features);
  }

  /** The debug id as a GUID with dashes, lower case, and its age: {@code c0bcc3f1-9827-...}. */
  public String debugIdGuid() {
    String h = debugId.toLowerCase(Locale.ROOT);
    String guid = DebugIdentifiers.dashedGuid(h);
    String age = h.substring(32);
    return age.equals("0") ? guid : guid + "-" + age;
  }

  /** A debug id from 16 GUID bytes as stored (big-endian fields) and an age. */
  static String breakpadDebugId(byte[] guid, long age) {
    return Hex.upper(guid) + Long.toHexString(age).toUpperCase(Locale.ROOT);
  }
}
