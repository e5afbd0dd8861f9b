package io.symbolicate.symbols.dotnet;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Source Link mappings ({@code {"documents": {"C:\\src\\*": "https://host/repo/sha/*"}}}) and how
 * a document path resolves to a URL, as symbolic-ppdb resolves it: paths compare
 * case-insensitively, exact rules first, then prefix rules longest first; the rest of the path
 * (backslashes turned to slashes) replaces the URL's {@code *}. URLs are reported, never fetched.
 */
public final class SourceLinkMap {
  private static final JsonFactory JSON = new JsonFactory();

  private record Rule(String pattern, boolean prefix, String url) {}

  private final List<Rule> rules;

  private SourceLinkMap(List<Rule> rules) {
    this.rules = rules;
  }

  public static SourceLinkMap parse(List<String> jsons) {
    List<Rule> rules = new ArrayList<>();
    for (String json : jsons) {
      addRules(json, rules);
    }
    // exact rules first, then prefixes by length, longest first (a stable sort)
    rules.sort(
        Comparator.comparing((Rule r) -> r.prefix())
            .thenComparing(r -> r.prefix() ? -r.pattern().length() : 0));
    return new SourceLinkMap(List.copyOf(rules));
  }

  private static void addRules(String json, List<Rule> rules) {
    try (JsonParser p = JSON.createParser(json)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new PortablePdbException("Source Link JSON is not an object");
      }
      boolean documents = false;
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        if (!field.equals("documents")) {
          p.skipChildren();
          continue;
        }
        if (value != JsonToken.START_OBJECT) {
          throw new PortablePdbException("Source Link 'documents' is not an object");
        }
        documents = true;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String key = p.currentName().toLowerCase(Locale.ROOT);
          if (p.nextToken() != JsonToken.VALUE_STRING) {
            throw new PortablePdbException("Source Link URL of '" + key + "' is not a string");
          }
          String url = p.getText();
          boolean prefix = key.endsWith("*");
          rules.add(new Rule(prefix ? key.substring(0, key.length() - 1) : key, prefix, url));
        }
      }
      if (!documents) {
        throw new PortablePdbException("Source Link JSON without 'documents'");
      }
    } catch (IOException e) {
      throw new PortablePdbException("Source Link JSON is malformed: " + e.getMessage(), e);
    }
  }

  public boolean isEmpty() {
    return rules.isEmpty();
  }

  /** The URL a document path maps to, if a rule matches. */
  public Optional<String> resolve(String path) {
    String lower = path.toLowerCase(Locale.ROOT);
    for (Rule r : rules) {
      if (!r.prefix()) {
        if (r.pattern().equals(lower)) {
          return Optional.of(r.url());
        }
      } else if (lower.startsWith(r.pattern())) {
        String rest =
            path.length() >= r.pattern().length() ? path.substring(r.pattern().length()) : "";
        return Optional.of(r.url().replace("*", rest.replace('\\', '/')));
      }
    }
    return Optional.empty();
  }
}
