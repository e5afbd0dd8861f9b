package io.symbolicate.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.junit.jupiter.api.Test;

/** The released versions readers register are the ones kept under src/main/avro-history. */
class SchemaHistoryTest {

  @Test
  void everyReleasedVersionIsOnTheClasspathAsKept() throws Exception {
    List<Path> onDisk = SchemaCompatibilityTest.releasedVersions();
    List<Map<String, Schema>> loaded = SchemaHistory.versions();
    assertThat(loaded).hasSize(onDisk.size()).isNotEmpty();
    for (int i = 0; i < onDisk.size(); i++) {
      Map<String, Schema> kept = SchemaCompatibilityTest.parse(onDisk.get(i));
      for (String name : SchemaFiles.RECORDS) {
        assertThat(loaded.get(i)).as(onDisk.get(i) + " " + name).containsKey(name);
        assertThat(SchemaNormalization.parsingFingerprint64(loaded.get(i).get(name)))
            .as(onDisk.get(i) + " " + name)
            .isEqualTo(SchemaNormalization.parsingFingerprint64(kept.get(name)));
      }
    }
  }

  @Test
  void releasedSchemasOfARecordAreOnePerVersionOldestFirst() {
    List<Schema> crashEvents =
        SchemaHistory.releasedSchemasOf(CrashEvent.getClassSchema().getFullName());
    assertThat(crashEvents).hasSize(SchemaHistory.versions().size());
    assertThat(crashEvents.get(0).getFullName()).isEqualTo("io.symbolicate.schema.CrashEvent");
    assertThat(SchemaHistory.releasedSchemasOf("io.symbolicate.schema.NoSuchRecord")).isEmpty();
  }
}
