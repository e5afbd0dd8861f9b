package io.symbolicate.api.sentry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.ApiException;
import io.symbolicate.api.Json;
import io.symbolicate.api.multipart.MultipartForm;

/**
 * The form fields Symbolicator's file endpoints take beside the file: {@code sources} (a JSON
 * array of symbol sources), {@code options} (a JSON object), {@code platform}. They are checked
 * for shape and otherwise not used: symbols come from the sources this server is configured with
 * (docs/http-api.md, "Where it runs, and where its symbols come from").
 */
public final class FormFields {
  /** Bytes of a JSON field read ({@code sources}, {@code options}). */
  public static final int MAX_JSON_FIELD_BYTES = 1 << 20;

  private FormFields() {}

  /** The file part's bytes: 400 when it is missing or empty. */
  public static byte[] file(MultipartForm form, String field) {
    MultipartForm.Part p = form.part(field);
    if (p == null) {
      throw ApiException.badRequest("the form has no '" + field + "' part");
    }
    if (p.length() == 0) {
      throw ApiException.badRequest("'" + field + "' is empty");
    }
    return p.bytes();
  }

  /** Checks {@code sources} (an array) and {@code options} (an object) when given. */
  public static void checkOptional(MultipartForm form) {
    json(form, "sources", true);
    json(form, "options", false);
  }

  private static void json(MultipartForm form, String field, boolean array) {
    MultipartForm.Part p = form.part(field);
    if (p == null) {
      return;
    }
    if (p.length() > MAX_JSON_FIELD_BYTES) {
      throw ApiException.tooLarge(
          "'" + field + "' is larger than " + MAX_JSON_FIELD_BYTES + " bytes");
    }
    JsonNode n;
    try {
      n = Json.MAPPER.readTree(p.text());
    } catch (JsonProcessingException e) {
      throw ApiException.badRequest("'" + field + "' is not valid JSON");
    }
    if (n == null || (array ? !n.isArray() : !n.isObject())) {
      throw ApiException.badRequest(
          "'" + field + "' must be a JSON " + (array ? "array" : "object"));
    }
  }
}
