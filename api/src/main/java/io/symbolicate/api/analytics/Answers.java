package io.symbolicate.api.analytics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.analytics.query.CountsUnavailableException;
import io.symbolicate.api.ApiException;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import io.symbolicate.schema.Platform;
import java.io.IOException;
import java.util.List;

/** What the analytics endpoints share: GET only, checked parameters, JSON answers. */
final class Answers {
  /** Longest release, platform or signature a request may name. */
  static final int MAX_NAME_CHARS = 1024;

  static final ObjectMapper JSON = new ObjectMapper();

  private Answers() {}

  static void requireGet(Request request) {
    if (!"GET".equals(request.method())) {
      throw new ApiException(405, "only GET is allowed here");
    }
  }

  static void send(Response response, JsonNode body) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    response.header("Cache-Control", "no-store");
    response.send(200, "application/json", bytes);
  }

  static ApiException unavailable(CountsUnavailableException e) {
    return new ApiException(503, e.getMessage());
  }

  /** A name parameter: null when absent; 400 when empty, too long or with control characters. */
  static String name(String param, String v) {
    if (v == null) {
      return null;
    }
    if (v.isEmpty()) {
      throw ApiException.badRequest(param + " must not be empty (leave it out for all)");
    }
    if (v.length() > MAX_NAME_CHARS) {
      throw ApiException.badRequest(param + " is longer than " + MAX_NAME_CHARS + " characters");
    }
    if (v.codePoints().anyMatch(Character::isISOControl)) {
      throw ApiException.badRequest(param + " contains control characters");
    }
    return v;
  }

  static String platform(String v) {
    String p = name("platform", v);
    List<String> known = Platform.SCHEMA$.getEnumSymbols();
    if (p != null && !known.contains(p)) {
      throw ApiException.badRequest(
          "platform '" + QueryString.printable(p) + "' is not one of " + known);
    }
    return p;
  }
}
