package io.symbolicate.api.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.api.auth.Action;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/api against the route table ({@link Route}): every route has a page that names it as
 * {@code `METHOD path`}, every page of docs/api is a route's page (or the keys page, which names
 * every action the routes take), and docs/http-api.md links every one of those pages.
 */
class RouteDocsTest {
  private static Path docs() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("docs").resolve("http-api.md"))) {
        return p.resolve("docs");
      }
    }
    throw new IllegalStateException(
        "docs/http-api.md of the checkout not found above " + Path.of("").toAbsolutePath());
  }

  private static String read(Path page) {
    try {
      return Files.readString(page, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void everyRouteHasAPageThatNamesIt() {
    Path docs = docs();
    List<String> missing = new ArrayList<>();
    for (Route r : Route.values()) {
      Path page = docs.resolve(r.page());
      if (!Files.isRegularFile(page)) {
        missing.add(r.name() + ": no page docs/" + r.page());
      } else if (!read(page).contains("`" + r + "`")) {
        missing.add(r.name() + ": docs/" + r.page() + " does not name `" + r + "`");
      }
    }
    assertThat(missing).as("routes without a page").isEmpty();
  }

  @Test
  void everyPageOfDocsApiIsARoutesPage() throws IOException {
    Path docs = docs();
    Set<String> named = new TreeSet<>();
    for (Route r : Route.values()) {
      named.add(r.page());
    }
    named.add(Route.KEYS_PAGE);
    Set<String> pages;
    try (Stream<Path> s = Files.list(docs.resolve("api"))) {
      pages =
          s.filter(p -> p.getFileName().toString().endsWith(".md"))
              .map(p -> "api/" + p.getFileName())
              .collect(Collectors.toCollection(TreeSet::new));
    }
    assertThat(pages).as("pages of docs/api").isNotEmpty();
    Set<String> orphans = new TreeSet<>(pages);
    orphans.removeAll(named);
    assertThat(orphans).as("pages of docs/api that no route of Route names").isEmpty();
  }

  @Test
  void theKeysPageNamesEveryActionTheRoutesTake() {
    String keys = read(docs().resolve(Route.KEYS_PAGE));
    Set<Action> taken = EnumSet.noneOf(Action.class);
    for (Route r : Route.values()) {
      if (r.action() != null) {
        taken.add(r.action());
      }
    }
    assertThat(taken).as("actions the routes take").isNotEmpty();
    for (Action a : taken) {
      assertThat(keys).as(Route.KEYS_PAGE).contains("`" + a.configName() + "`");
    }
  }

  @Test
  void theOverviewLinksEveryPage() {
    String overview = read(docs().resolve("http-api.md"));
    Set<String> pages = new TreeSet<>();
    for (Route r : Route.values()) {
      pages.add(r.page());
    }
    pages.add(Route.KEYS_PAGE);
    List<String> unlinked = pages.stream().filter(p -> !overview.contains("](" + p + ")")).toList();
    assertThat(unlinked).as("pages docs/http-api.md does not link").isEmpty();
  }
}
