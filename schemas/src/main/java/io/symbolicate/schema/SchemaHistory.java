package io.symbolicate.schema;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * The released versions of the wire schemas ({@code src/main/avro-history/vN}, packaged in this
 * jar), so that readers can decode records written with any of them (docs/schemas.md, evolution
 * policy). Loaded once, from {@code v1} up to the first version that is missing.
 */
public final class SchemaHistory {
  private static final String BASE = "avro-history/v";

  private static volatile List<Map<String, Schema>> versions;

  private SchemaHistory() {}

  /** Every released version's schema of the record {@code fullName}, oldest first. */
  public static List<Schema> releasedSchemasOf(String fullName) {
    List<Schema> out = new ArrayList<>();
    for (Map<String, Schema> v : versions()) {
      Schema s = v.get(fullName);
      if (s != null) {
        out.add(s);
      }
    }
    return out;
  }

  /** The released versions, oldest first: each a map from record full name to its schema. */
  public static List<Map<String, Schema>> versions() {
    List<Map<String, Schema>> v = versions;
    if (v == null) {
      synchronized (SchemaHistory.class) {
        v = versions;
        if (v == null) {
          v = load();
          versions = v;
        }
      }
    }
    return v;
  }

  private static List<Map<String, Schema>> load() {
    List<Map<String, Schema>> out = new ArrayList<>();
    for (int n = 1;
        SchemaHistory.class.getResource(BASE + n + "/" + SchemaFiles.PARSE_ORDER.get(0)) != null;
        n++) {
      Schema.Parser parser = new Schema.Parser();
      Map<String, Schema> records = new HashMap<>();
      for (String file : SchemaFiles.PARSE_ORDER) {
        try (InputStream in = SchemaHistory.class.getResourceAsStream(BASE + n + "/" + file)) {
          if (in == null) {
            continue; // a type added after this version
          }
          Schema s = parser.parse(in);
          if (s.getType() == Schema.Type.RECORD) {
            records.put(s.getFullName(), s);
          }
        } catch (IOException e) {
          throw new UncheckedIOException("cannot read released schema v" + n + "/" + file, e);
        }
      }
      out.add(Map.copyOf(records));
    }
    return List.copyOf(out);
  }
}
