package io.symbolicate.symbols.dotnet;

import java.util.HexFormat;

/** GUIDs as the metadata stores them (first three fields little-endian) and as they print. */
final class Guids {
  private Guids() {}

  static final String CSHARP = "3f5162f8-07c6-11d3-9053-00c04fa302a1";
  static final String VISUAL_BASIC = "3a12d0b8-c26c-11d0-b442-00a0244a1dd2";
  static final String FSHARP = "ab4f38c9-b6e6-43ba-be3b-58080b2ccce3";
  static final String EMBEDDED_SOURCE = "0e8a571b-6926-466e-b4ad-8ab04611f5fe";
  static final String SOURCE_LINK = "cc110556-a091-4d38-9fec-25ab9a351a6a";

  /** The 16 stored bytes with the first three fields swapped to print order. */
  static byte[] toBigEndian(byte[] g) {
    byte[] b = g.clone();
    reverse(b, 0, 4);
    reverse(b, 4, 2);
    reverse(b, 6, 2);
    return b;
  }

  /** {@code xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}, lowercase, from the stored bytes. */
  static String format(byte[] stored) {
    if (stored == null) {
      return null;
    }
    // a document table has a row per source file, each naming its language's GUID: no regex or
    // per-byte formatting here (String.format per byte was half of a small PDB's load)
    byte[] b = toBigEndian(stored);
    HexFormat hex = HexFormat.of();
    return hex.formatHex(b, 0, 4)
        + '-'
        + hex.formatHex(b, 4, 6)
        + '-'
        + hex.formatHex(b, 6, 8)
        + '-'
        + hex.formatHex(b, 8, 10)
        + '-'
        + hex.formatHex(b, 10, 16);
  }

  static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }

  /** The language a document's GUID names, as symbolic names it; {@code unknown} otherwise. */
  static String language(String guid) {
    if (guid == null) {
      return "unknown";
    }
    return switch (guid) {
      case CSHARP -> "csharp";
      case VISUAL_BASIC -> "visualbasic";
      case FSHARP -> "fsharp";
      default -> "unknown";
    };
  }

  private static void reverse(byte[] b, int from, int n) {
    for (int i = 0, j = n - 1; i < j; i++, j--) {
      byte t = b[from + i];
      b[from + i] = b[from + j];
      b[from + j] = t;
    }
  }
}
