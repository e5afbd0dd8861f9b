package io.symbolicate.symbols.objects;

/**
 * The CodeView {@code RSDS} record of a PE's debug directory: who its PDB is. {@code guid} holds
 * the 16 bytes with its first three fields in big-endian order (as the GUID is printed), {@code
 * age} the PDB's age and {@code path} the PDB path the linker wrote (often a Windows path).
 */
public record PeCodeView(byte[] guid, long age, String path) {
  public PeCodeView {
    guid = guid.clone();
  }

  @Override
  public byte[] guid() {
    return guid.clone();
  }

  /** The file name of {@link #path}, after its last {@code \} or {@code /}. */
  public String fileName() {
    int cut = Math.max(path.lastIndexOf('\\'), path.lastIndexOf('/'));
    return path.substring(cut + 1);
  }

  /** The debug id in Breakpad's form: the GUID's 32 hex digits, then the age in hex. */
  public String debugId() {
    return ObjectIdentity.breakpadDebugId(guid, age);
  }
}
