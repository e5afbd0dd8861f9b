package io.symbolicate.symbols.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads Symbolicator's insta snapshots (a metadata block between "---" lines, then YAML). */
public final class Snapshots {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private Snapshots() {}

  public static JsonNode read(Path snap) throws IOException {
    String text = Files.readString(snap);
    // "---\n<metadata>\n---\n<body>": the body is the document after the second separator
    int first = text.indexOf("---\n");
    int second = text.indexOf("\n---\n", first + 3);
    return YAML.readTree(text.substring(second + 5));
  }
}
