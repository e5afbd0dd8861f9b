package io.symbolicate.signatures;

import java.util.List;

/**
 * A generated signature: what siggen's {@code signify} prints ({@code signature},
 * {@code proto_signature}, {@code notes}), plus the debug log its {@code --verbose} prints.
 * {@code protoSignature} is "" when no frames were normalized (as signify prints it).
 */
public record SignatureResult(
    String signature, String protoSignature, List<String> notes, List<String> debugLog) {
  public SignatureResult {
    notes = List.copyOf(notes);
    debugLog = List.copyOf(debugLog);
  }

  /** The JSON signify prints: keys in its order, two-space indent, ASCII only. */
  public String toJson() {
    StringBuilder sb = new StringBuilder(256);
    sb.append("{\n  \"signature\": ");
    PythonJson.appendString(sb, signature);
    sb.append(",\n  \"proto_signature\": ");
    PythonJson.appendString(sb, protoSignature);
    sb.append(",\n  \"notes\": ");
    if (notes.isEmpty()) {
      sb.append("[]");
    } else {
      sb.append('[');
      for (int i = 0; i < notes.size(); i++) {
        sb.append(i == 0 ? "\n    " : ",\n    ");
        PythonJson.appendString(sb, notes.get(i));
      }
      sb.append("\n  ]");
    }
    return sb.append("\n}").toString();
  }
}
