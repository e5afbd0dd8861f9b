package io.symbolicate.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.apache.avro.SchemaNormalization;
import org.junit.jupiter.api.Test;

/**
 * Evolution policy (docs/schemas.md): every released schema version is kept under
 * src/main/avro-history/vN; the current schemas must be able to read data written with every
 * released version (backward compatibility, Avro's own checker), and every released version
 * must be able to read data written with the current schemas (forward compatibility), so
 * producers and consumers can upgrade in any order.
 */
class SchemaCompatibilityTest {
  private static final Path CURRENT = Paths.get("src/main/avro");
  private static final Path HISTORY = Paths.get("src/main/avro-history");

  @Test
  void currentSchemasAreCompatibleWithEveryReleasedVersion() throws IOException {
    Map<String, Schema> current = parse(CURRENT);
    List<Path> versions = releasedVersions();
    assertThat(versions).as("released schema versions under " + HISTORY).isNotEmpty();
    for (Path version : versions) {
      Map<String, Schema> released = parse(version);
      for (String name : SchemaFiles.RECORDS) {
        assertThat(released).as(version + " has " + name).containsKey(name);
        assertCompatible(current.get(name), released.get(name), version + " " + name);
      }
    }
  }

  @Test
  void generatedClassesUseTheCurrentSchemaFiles() throws IOException {
    Map<String, Schema> current = parse(CURRENT);
    assertSameCanonicalForm(
        CrashEvent.getClassSchema(), current.get("io.symbolicate.schema.CrashEvent"));
    assertSameCanonicalForm(
        SymbolicatedEvent.getClassSchema(), current.get("io.symbolicate.schema.SymbolicatedEvent"));
    assertSameCanonicalForm(
        DeadLetter.getClassSchema(), current.get("io.symbolicate.schema.DeadLetter"));
  }

  private static void assertSameCanonicalForm(Schema generated, Schema file) {
    assertThat(SchemaNormalization.parsingFingerprint64(generated))
        .as(generated.getFullName())
        .isEqualTo(SchemaNormalization.parsingFingerprint64(file));
  }

  @Test
  void theCheckerRejectsABrokenCopy() throws IOException {
    Map<String, Schema> released = parse(releasedVersions().get(0));
    String crashEvent = Files.readString(CURRENT.resolve("CrashEvent.avsc"));

    // 1. a new required field without a default: new readers cannot read old data
    String addedRequired =
        crashEvent.replace(
            "{\"name\": \"event_id\", \"type\": \"string\"",
            "{\"name\": \"tenant_key\", \"type\": \"string\"},\n    {\"name\": \"event_id\", \"type\": \"string\"");
    assertThat(addedRequired).isNotEqualTo(crashEvent);
    assertIncompatible(
        parseBroken(addedRequired), released.get("io.symbolicate.schema.CrashEvent"));

    // 2. a field's type changed incompatibly (string -> int)
    String retyped =
        crashEvent.replace(
            "{\"name\": \"event_id\", \"type\": \"string\"",
            "{\"name\": \"event_id\", \"type\": \"int\"");
    assertThat(retyped).isNotEqualTo(crashEvent);
    assertIncompatible(parseBroken(retyped), released.get("io.symbolicate.schema.CrashEvent"));

    // 3. an enum symbol removed without a default on the old side is caught forward
    String noJvm = crashEvent; // Platform lives in common.avsc
    String common =
        Files.readString(CURRENT.resolve("common.avsc"))
            .replace("\"jvm\"]", "\"jvm\", \"python\"]")
            .replace("\"default\": \"unknown\"", "\"default\": \"native\"");
    Schema.Parser p = new Schema.Parser();
    p.parse(common);
    Schema withPython = p.parse(noJvm);
    // still compatible thanks to the enum default: old readers map 'python' to the default
    assertCompatible(
        withPython, released.get("io.symbolicate.schema.CrashEvent"), "enum with default");
  }

  private static void assertCompatible(Schema current, Schema released, String what) {
    var backward = SchemaCompatibility.checkReaderWriterCompatibility(current, released);
    assertThat(backward.getType())
        .as("current reads %s: %s", what, backward.getResult().getIncompatibilities())
        .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
    var forward = SchemaCompatibility.checkReaderWriterCompatibility(released, current);
    assertThat(forward.getType())
        .as("%s reads current: %s", what, forward.getResult().getIncompatibilities())
        .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
  }

  private static void assertIncompatible(Schema broken, Schema released) {
    var backward = SchemaCompatibility.checkReaderWriterCompatibility(broken, released);
    var forward = SchemaCompatibility.checkReaderWriterCompatibility(released, broken);
    assertThat(List.of(backward.getType(), forward.getType()))
        .contains(SchemaCompatibilityType.INCOMPATIBLE);
  }

  private static Schema parseBroken(String crashEventJson) throws IOException {
    Schema.Parser p = new Schema.Parser();
    p.parse(Files.readString(CURRENT.resolve("common.avsc")));
    return p.parse(crashEventJson);
  }

  static Map<String, Schema> parse(Path dir) throws IOException {
    Schema.Parser parser = new Schema.Parser();
    for (String file : SchemaFiles.PARSE_ORDER) {
      parser.parse(dir.resolve(file).toFile());
    }
    return parser.getTypes();
  }

  static List<Path> releasedVersions() throws IOException {
    try (Stream<Path> s = Files.list(HISTORY)) {
      List<Path> out = new ArrayList<>(s.filter(Files::isDirectory).sorted().toList());
      return out;
    }
  }
}
