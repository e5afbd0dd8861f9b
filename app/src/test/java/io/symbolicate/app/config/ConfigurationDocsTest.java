package io.symbolicate.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's configuration table documents every key the app knows, with its default: the
 * issue that built the pipeline asks for it, and a key added to {@link AppConfig} without a row
 * would be invisible to operators.
 */
class ConfigurationDocsTest {
  /** Defaults that depend on the machine; their rows say so in words. */
  private static final Set<String> MACHINE_DEPENDENT = Set.of("state.dir", "http.cache.dir", "page.cache.bytes");
  private static final Pattern KEY = Pattern.compile("`([a-z0-9.-]+)`");

  private static Path readme() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("topology"))) {
        return p.resolve("README.md");
      }
    }
    throw new IllegalStateException("README.md of the checkout not found above " + Path.of("").toAbsolutePath());
  }

  /** First column's keys -> second column of each table row of the README's {@code section}. */
  private static Map<String, String> documented(String section) throws IOException {
    Map<String, String> rows = new LinkedHashMap<>();
    boolean inSection = false;
    for (String line : Files.readAllLines(readme())) {
      if (line.startsWith("## ")) {
        inSection = line.equals(section);
        continue;
      }
      if (!inSection || !line.startsWith("| `")) {
        continue;
      }
      String[] cells = line.split("(?<!\\\\)\\|");
      Matcher m = KEY.matcher(cells[1]);
      while (m.find()) {
        rows.put(m.group(1), cells[2].trim());
      }
    }
    return rows;
  }

  @Test
  void everyKeyHasARowWithItsDefault() throws IOException {
    Map<String, String> rows = documented("## Configuration");
    List<String> undocumented = new ArrayList<>();
    List<String> wrongDefault = new ArrayList<>();
    for (var e : AppConfig.DEFAULTS.entrySet()) {
      String row = rows.get(e.getKey());
      if (row == null) {
        undocumented.add(e.getKey());
      } else if (!e.getValue().isEmpty() && !MACHINE_DEPENDENT.contains(e.getKey())
          && !row.contains("`" + e.getValue() + "`") && !row.endsWith("...")) {
        wrongDefault.add(e.getKey() + " = " + e.getValue() + " but the README says " + row);
      }
    }
    assertThat(undocumented).as("keys without a row in the README's Configuration section").isEmpty();
    assertThat(wrongDefault).as("rows whose default is not the app's").isEmpty();
    assertThat(rows.keySet()).as("rows for keys the app does not know")
        .allSatisfy(k -> assertThat(AppConfig.DEFAULTS).containsKey(k));
  }

  @Test
  void everyTopicHasARowWithItsKey() throws IOException {
    Map<String, String> rows = documented("## Topics");
    var defaults = AppConfig.defaults();
    for (String key : List.of("topic.raw", "topic.symbolicated", "topic.dlq", "topic.requests", "topic.tables",
        "topic.index", "topic.uploads", "topic.missing")) {
      assertThat(rows).as("row of " + key).containsEntry(defaults.get(key), "`" + key + "`");
    }
    assertThat(defaults.topicNames().all()).allSatisfy(t -> assertThat(rows).containsKey(t));
  }
}
