package io.symbolicate.app.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.schema.topic.Topic;
import io.symbolicate.schema.topic.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md's table is {@link ConfigDocs#table()}, so a key added to
 * {@link ConfigKeys} without its row (or a changed default) fails here rather than going
 * unseen by operators. To refresh the page after changing a key, run this test with
 * {@code -Dconfig.docs.write=true}.
 */
class ConfigurationDocsTest {
  private static final Pattern KEY = Pattern.compile("`([a-z0-9.-]+)`");

  private static Path docs(String page) {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("docs").resolve(page))
          && Files.isDirectory(p.resolve("app"))) {
        return p.resolve("docs").resolve(page);
      }
    }
    throw new IllegalStateException(
        "docs/" + page + " of the checkout not found above " + Path.of("").toAbsolutePath());
  }

  @Test
  void theConfigurationPageShowsEveryKeyWithItsDefaultAndDoc() throws IOException {
    Path page = docs("configuration.md");
    String text = Files.readString(page);
    String expected = ConfigDocs.withTable(text);
    if (!expected.equals(text) && Boolean.getBoolean("config.docs.write")) {
      Files.writeString(page, expected);
      text = expected;
    }
    assertThat(text)
        .as(
            "docs/configuration.md's table is generated from ConfigKeys: run ConfigurationDocsTest "
                + "with -Dconfig.docs.write=true to refresh it")
        .isEqualTo(expected);
  }

  @Test
  void everyKeyIsInTheListOnce() {
    assertThat(ConfigKeys.ALL).extracting(ConfigKey::name).doesNotHaveDuplicates();
    assertThat(AppConfig.DEFAULTS.keySet())
        .containsExactlyElementsOf(ConfigKeys.ALL.stream().map(ConfigKey::name).toList());
    assertThat(ConfigKeys.ALL).allSatisfy(k -> assertThat(k.doc()).as(k.name()).isNotBlank());
  }

  @Test
  void everyTopicHasARowOfOperationsWithItsKey() throws IOException {
    Map<String, String> rows = new LinkedHashMap<>();
    boolean inSection = false;
    for (String line : Files.readAllLines(docs("operations.md"))) {
      if (line.startsWith("## ")) {
        inSection = line.equals("## Topics");
        continue;
      }
      if (inSection && line.startsWith("| `")) {
        String[] cells = line.split("(?<!\\\\)\\|");
        Matcher m = KEY.matcher(cells[1]);
        if (m.find()) {
          rows.put(m.group(1), cells[2].trim());
        }
      }
    }
    for (Topic<?, ?> t : Topics.ALL) {
      assertThat(rows)
          .as("row of " + t.configKey())
          .containsEntry(t.defaultName(), "`" + t.configKey() + "`");
      assertThat(AppConfig.DEFAULTS).containsEntry(t.configKey(), t.defaultName());
    }
  }
}
