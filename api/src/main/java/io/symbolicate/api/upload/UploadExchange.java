package io.symbolicate.api.upload;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.api.auth.Action;
import io.symbolicate.api.auth.ApiKeyException;
import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every upload route does around its own step: POST only, a request slot, the key
 * ({@link Action#UPLOAD}, its scope), the part headers ({@code FilePart}, {@code FileParts},
 * {@code Content-Length}) checked before the body is read, the body into a temporary file, and
 * the document's JSON reply; a failure's uuid is in the reply and in the log line.
 */
final class UploadExchange {
  private static final Logger log = LoggerFactory.getLogger(UploadExchange.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A route's own step: stores the part through the service. */
  @FunctionalInterface
  interface Step {
    void upload(Request request, String scope, int part, int parts, Path body)
        throws UploadError, IOException;
  }

  private UploadExchange() {}

  /**
   * @param partsRequired whether {@code FilePart}/{@code FileParts} must be sent (Elastic's
   *     routes); elsewhere their absence means one part
   */
  static void handle(
      Request request,
      Response response,
      ApiKeys keys,
      UploadService service,
      boolean partsRequired,
      Step step)
      throws IOException {
    handle(request, response, keys, service, partsRequired, List.of("POST"), step);
  }

  /** As above, answering {@code methods} (the others: 405). */
  static void handle(
      Request request,
      Response response,
      ApiKeys keys,
      UploadService service,
      boolean partsRequired,
      List<String> methods,
      Step step)
      throws IOException {
    String uuid = UUID.randomUUID().toString();
    try {
      if (!methods.contains(request.method())) {
        response.header("Allow", String.join(", ", methods));
        throw new UploadError(
            405, UploadError.BAD_REQUEST, "only " + String.join(" or ", methods) + " is allowed");
      }
      service.enter();
      try {
        receive(request, keys, service, partsRequired, step);
      } finally {
        service.leave();
      }
      service.answered(200);
      reply(response, 200, Map.of("success", true, "status", 200));
    } catch (UploadError e) {
      if (e.status == 429) {
        // a busy instance refuses many a second under load: counted (symbolicate.upload.answers)
        log.debug("upload {} refused ({} {}): {}", uuid, e.status, e.code, e.getMessage());
      } else {
        log.info("upload {} refused ({} {}): {}", uuid, e.status, e.code, e.getMessage());
      }
      service.answered(e.status);
      fail(response, uuid, e.status, e.code, e.getMessage());
    } catch (IOException | RuntimeException e) {
      log.error("upload {} failed: {}", uuid, e.toString(), e);
      service.answered(500);
      fail(response, uuid, 500, UploadError.INTERNAL, "Something went wrong on our side.");
    }
  }

  private static void receive(
      Request h, ApiKeys keys, UploadService service, boolean partsRequired, Step step)
      throws UploadError, IOException {
    String scope;
    try {
      scope = keys.authorize(h.header("Authorization"), Action.UPLOAD);
    } catch (ApiKeyException e) {
      throw new UploadError(
          e.status(),
          e.status() == 401 ? UploadError.UNAUTHORIZED : UploadError.FORBIDDEN,
          e.getMessage());
    }
    boolean named = h.hasHeader("FilePart") || h.hasHeader("FileParts");
    int parts = partsRequired || named ? intHeader(h, "FileParts") : 1;
    int part = partsRequired || named ? intHeader(h, "FilePart") : 0;
    String cl = h.header("Content-Length");
    if (cl == null) {
      throw new UploadError(411, UploadError.BAD_REQUEST, "Content-Length is required");
    }
    long length;
    try {
      length = Long.parseLong(cl.strip());
    } catch (NumberFormatException e) {
      throw UploadError.badRequest("Content-Length is not a number");
    }
    service.checkPart(part, parts, length);
    Path tmp = Files.createTempFile("upload-part", ".tmp");
    try {
      long got;
      try (InputStream body = h.body();
          OutputStream out = Files.newOutputStream(tmp)) {
        got = copyBody(body, out); // the server stops the body at Content-Length
      }
      if (got != length) {
        throw UploadError.badRequest(
            "the body has " + got + " bytes, Content-Length says " + length);
      }
      step.upload(h, scope, part, parts, tmp);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /**
   * Copies the body; a read that fails (a client too slow for the minimum rate, gone, or cut off
   * by the body timeout) is the client's 408, not a 500: only a failing write is ours.
   */
  private static long copyBody(InputStream body, OutputStream out) throws UploadError, IOException {
    byte[] buffer = new byte[64 * 1024];
    long total = 0;
    while (true) {
      int n;
      try {
        n = body.read(buffer);
      } catch (IOException e) {
        throw new UploadError(
            408,
            UploadError.BAD_REQUEST,
            "the request body stopped after " + total + " bytes: " + e.getMessage());
      }
      if (n < 0) {
        return total;
      }
      out.write(buffer, 0, n);
      total += n;
    }
  }

  static int intHeader(Request h, String name) throws UploadError {
    String v = h.header(name);
    if (v == null) {
      throw UploadError.badRequest("the " + name + " header is required");
    }
    try {
      return Integer.parseInt(v.strip());
    } catch (NumberFormatException e) {
      throw UploadError.badRequest(name + " is not a number");
    }
  }

  /**
   * The staging id of an upload that its content names: the client's {@code UploadID} (which
   * groups the parts of one file, so required for more than one part), else a fresh one.
   */
  static String uploadId(Request h, int parts) throws UploadError {
    String v = h.header("UploadID");
    if (v == null || v.isBlank()) {
      if (parts > 1) {
        throw UploadError.badRequest("an UploadID header is required to send a file in parts");
      }
      return UUID.randomUUID().toString();
    }
    return v.strip();
  }

  /** A header that must be there. */
  static String required(Request h, String name) throws UploadError {
    String v = h.header(name);
    if (v == null || v.isBlank()) {
      throw UploadError.badRequest("the " + name + " header is required");
    }
    return v.strip();
  }

  private static void fail(Response response, String uuid, int status, String code, String text)
      throws IOException {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("success", false);
    m.put("uuid", uuid);
    Map<String, Object> err = new LinkedHashMap<>();
    err.put("Code", code);
    err.put("Text", text);
    m.put("error", err);
    m.put("status", status);
    reply(response, status, m);
  }

  private static void reply(Response response, int status, Map<String, Object> body)
      throws IOException {
    response.send(status, "application/json", JSON.writeValueAsBytes(body));
  }
}
