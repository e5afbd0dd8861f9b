package io.symbolicate.symbols.objects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The peers' expectations about object identity, read from the fixtures at test time: Sentry
 * symbolic's inline object snapshots (extracted-test-expectations.json) and the MODULE / INFO
 * CODE_ID lines of Breakpad .sym goldens.
 */
final class PeerExpectations {
  /** One symbolic {@code ElfObject}/{@code MachObject} debug snapshot. */
  record SymbolicObject(
      String codeId,
      String uuid,
      String arch,
      String kind,
      long loadAddress,
      boolean hasSymbols,
      boolean hasDebugInfo,
      boolean hasUnwindInfo) {}

  private PeerExpectations() {}

  /** The inline object snapshot of symbolic's test {@code test} of test_objects.rs. */
  static SymbolicObject symbolicObject(String test) throws IOException {
    Path json = ElfFileTest.difs("getsentry-symbolic/extracted-test-expectations.json");
    JsonNode root = new ObjectMapper().readTree(json.toFile());
    List<JsonNode> entries = new ArrayList<>();
    (root.isArray() ? root : root.path("tests")).forEach(entries::add);
    for (JsonNode e : entries) {
      if (e.path("test").asText().equals(test)
          && e.path("file").asText().endsWith("test_objects.rs")) {
        String s = e.path("raw_strings").get(0).asText();
        return new SymbolicObject(
            field(s, "CodeId\\(([0-9a-f]+)\\)"),
            field(s, "uuid: \"([0-9a-f-]+)\""),
            field(s, "arch: (\\w+)"),
            field(s, "kind: (\\w+)"),
            Long.decode(field(s, "load_address: (0x[0-9a-f]+)")),
            Boolean.parseBoolean(field(s, "has_symbols: (\\w+)")),
            Boolean.parseBoolean(field(s, "has_debug_info: (\\w+)")),
            Boolean.parseBoolean(field(s, "has_unwind_info: (\\w+)")));
      }
    }
    throw new IllegalArgumentException("no symbolic test " + test);
  }

  /** Symbolic's {@code Arch} debug names as Breakpad's. */
  static String breakpadArch(String symbolicArch) {
    return switch (symbolicArch) {
      case "Amd64" -> "x86_64";
      case "X86" -> "x86";
      case "Arm64" -> "arm64";
      default -> symbolicArch.toLowerCase();
    };
  }

  /** {os, arch, debug id, name} of a .sym file's MODULE line. */
  static String[] moduleLine(Path sym) throws IOException {
    try (var lines = Files.lines(sym)) {
      String first = lines.findFirst().orElseThrow();
      return first.substring("MODULE ".length()).split(" ", 4);
    }
  }

  /** The INFO CODE_ID of a .sym file, or null. */
  static String codeIdLine(Path sym) throws IOException {
    try (var lines = Files.lines(sym)) {
      return lines
          .filter(l -> l.startsWith("INFO CODE_ID "))
          .map(l -> l.substring("INFO CODE_ID ".length()).split(" ")[0])
          .findFirst()
          .orElse(null);
    }
  }

  private static String field(String s, String regex) {
    Matcher m = Pattern.compile(regex).matcher(s);
    if (!m.find()) {
      throw new IllegalArgumentException("no " + regex + " in " + s);
    }
    return m.group(1);
  }
}
