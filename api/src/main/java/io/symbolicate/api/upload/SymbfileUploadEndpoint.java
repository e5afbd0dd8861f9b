package io.symbolicate.api.upload;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.symbolicate.symbols.id.SymbolLayout;
import io.symbolicate.symbols.symbfile.FileId;
import io.symbolicate.symbols.symbfile.SymbfileException;
import io.symbolicate.symbols.symbfile.SymbfileKeys;
import io.symbolicate.symbols.symbfile.SymbfileReader;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /api/symbols-ranges} and {@code /api/symbols-returnpads} (Elastic's symbfile
 * upload, docs/api/symbols-upload.md): one part of a symbfile per request, stored in the symbol
 * store under {@code symbfile-parts/}; the request that completes the file assembles it,
 * validates it with {@link SymbfileReader}, writes it where the loader reads it and announces
 * the module on {@code symbols.uploads}.
 */
public final class SymbfileUploadEndpoint implements HttpHandler {
  private static final Logger log = LoggerFactory.getLogger(SymbfileUploadEndpoint.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Which of the FileID's two files this route takes. */
  public enum Kind {
    RANGES(SymbfileKeys.RANGES, "ranges"),
    RETURN_PADS(SymbfileKeys.RETURN_PADS, "returnpads");

    final String fileName;
    final String partFolder;

    Kind(String fileName, String partFolder) {
      this.fileName = fileName;
      this.partFolder = partFolder;
    }
  }

  /** Tells the loader a module's files changed (a SymbolRequest with reason upload). */
  @FunctionalInterface
  public interface Announcer {
    void announce(String scope, String moduleKey) throws Exception;
  }

  private final Kind kind;
  private final ApiKeys keys;
  private final UploadStore store;
  private final Announcer announcer;
  private final UploadLimits limits;
  private final Semaphore inFlight;

  public SymbfileUploadEndpoint(Kind kind, ApiKeys keys, UploadStore store, Announcer announcer,
      UploadLimits limits) {
    this.kind = kind;
    this.keys = keys;
    this.store = store;
    this.announcer = announcer;
    this.limits = limits;
    this.inFlight = new Semaphore(limits.maxInFlight());
  }

  /** The key of part {@code i} of {@code n}; parts of another count never mix with these. */
  static String partKey(String scope, FileId id, Kind kind, int i, int n) {
    return SymbolLayout.scopePrefix(scope) + "symbfile-parts/" + id.toBase64() + "/" + kind.partFolder
        + "/" + i + "-of-" + n;
  }

  @Override
  public void handle(HttpExchange ex) throws IOException {
    String uuid = UUID.randomUUID().toString();
    try (ex) {
      try {
        if (!"POST".equals(ex.getRequestMethod())) {
          ex.getResponseHeaders().set("Allow", "POST");
          throw new UploadError(405, UploadError.BAD_REQUEST, "only POST is allowed");
        }
        if (!inFlight.tryAcquire()) {
          throw new UploadError(429, UploadError.BUSY, "more than " + limits.maxInFlight()
              + " uploads in flight on this instance; retry later");
        }
        try {
          upload(ex);
        } finally {
          inFlight.release();
        }
        reply(ex, 200, Map.of("success", true, "status", 200));
      } catch (UploadError e) {
        log.warn("upload {} refused ({} {}): {}", uuid, e.status, e.code, e.getMessage());
        fail(ex, uuid, e.status, e.code, e.getMessage());
      } catch (IOException | RuntimeException e) {
        log.error("upload {} failed: {}", uuid, e.toString(), e);
        fail(ex, uuid, 500, UploadError.INTERNAL, "Something went wrong on our side.");
      }
    }
  }

  private void upload(HttpExchange ex) throws UploadError, IOException {
    String scope = authorize(ex.getRequestHeaders().getFirst("Authorization"));
    FileId id = fileId(ex.getRequestHeaders().getFirst("FileID"));
    int parts = intHeader(ex, "FileParts");
    int part = intHeader(ex, "FilePart");
    if (parts < 1) {
      throw new UploadError(400, UploadError.BAD_REQUEST, "FileParts must be at least 1");
    }
    if (parts > limits.maxParts()) {
      throw new UploadError(413, UploadError.TOO_LARGE, "FileParts " + parts + " is more than the limit of "
          + limits.maxParts() + " parts per file");
    }
    if (part < 0 || part >= parts) {
      throw new UploadError(400, UploadError.BAD_REQUEST, "FilePart must be in 0.." + (parts - 1));
    }
    String cl = ex.getRequestHeaders().getFirst("Content-Length");
    if (cl == null) {
      throw new UploadError(411, UploadError.BAD_REQUEST, "Content-Length is required");
    }
    long length;
    try {
      length = Long.parseLong(cl.strip());
    } catch (NumberFormatException e) {
      throw new UploadError(400, UploadError.BAD_REQUEST, "Content-Length is not a number");
    }
    if (length > limits.maxPartBytes()) {
      throw new UploadError(413, UploadError.TOO_LARGE, "a part of " + length + " bytes is more than the limit of "
          + limits.maxPartBytes() + " bytes per part");
    }
    if (length <= 0) {
      throw new UploadError(400, UploadError.BAD_REQUEST, "the part is empty");
    }
    Path tmp = Files.createTempFile("symbfile-part", ".tmp");
    try {
      long got;
      try (InputStream body = ex.getRequestBody(); OutputStream out = Files.newOutputStream(tmp)) {
        got = body.transferTo(out); // the JDK server stops the body at Content-Length
      }
      if (got != length) {
        throw new UploadError(400, UploadError.BAD_REQUEST, "the body has " + got + " bytes, Content-Length says "
            + length);
      }
      store.put(partKey(scope, id, kind, part, parts), tmp);
    } finally {
      Files.deleteIfExists(tmp);
    }
    for (int i = 0; i < parts; i++) {
      if (!store.exists(partKey(scope, id, kind, i, parts))) {
        return; // another part completes the file
      }
    }
    assemble(scope, id, parts);
  }

  /** All parts are there: concatenated, read to the end, written to the loader's key, announced. */
  private void assemble(String scope, FileId id, int parts) throws UploadError, IOException {
    Path whole = Files.createTempFile("symbfile", ".tmp");
    try {
      try (OutputStream out = Files.newOutputStream(whole)) {
        for (int i = 0; i < parts; i++) {
          try (InputStream in = store.open(partKey(scope, id, kind, i, parts))) {
            if (in == null) {
              return; // a concurrent assembly took the parts: it finishes the file
            }
            in.transferTo(out);
          }
        }
      }
      try (SymbfileReader r = new SymbfileReader(new BufferedInputStream(Files.newInputStream(whole)))) {
        while (r.next() != null) {
          // a full read: every record must decode
        }
      } catch (SymbfileException e) {
        deleteParts(scope, id, parts);
        throw new UploadError(400, UploadError.INVALID_FILE, "the assembled " + kind.partFolder
            + " file is not a valid symbfile: " + e.getMessage());
      }
      store.put(SymbfileKeys.folder(scope, id) + kind.fileName, whole);
      deleteParts(scope, id, parts);
    } finally {
      Files.deleteIfExists(whole);
    }
    try {
      announcer.announce(scope, SymbfileKeys.moduleKey(id));
    } catch (Exception e) {
      throw new IOException("the file is stored but could not be announced: " + e, e);
    }
    log.info("symbfile {} of {} (scope {}) assembled from {} parts and announced", kind.partFolder,
        id.toBase64(), scope, parts);
  }

  private void deleteParts(String scope, FileId id, int parts) throws IOException {
    for (int i = 0; i < parts; i++) {
      store.delete(partKey(scope, id, kind, i, parts));
    }
  }

  private String authorize(String header) throws UploadError {
    if (header == null || header.isBlank()) {
      throw new UploadError(401, UploadError.UNAUTHORIZED, "an Authorization: APIKey header is required");
    }
    String h = header.strip();
    if (!h.regionMatches(true, 0, "APIKey ", 0, 7)) {
      throw new UploadError(401, UploadError.UNAUTHORIZED, "the Authorization header must be 'APIKey <key>'");
    }
    String scope = keys.scopeOf(h.substring(7).strip());
    if (scope == null) {
      throw new UploadError(403, UploadError.FORBIDDEN, "the API key is not valid");
    }
    return scope;
  }

  private static FileId fileId(String header) throws UploadError {
    if (header == null) {
      throw new UploadError(400, UploadError.BAD_REQUEST, "the FileID header is required");
    }
    try {
      return FileId.parse(header.strip());
    } catch (SymbfileException e) {
      throw new UploadError(400, UploadError.BAD_REQUEST, "FileID: " + e.getMessage());
    }
  }

  private static int intHeader(HttpExchange ex, String name) throws UploadError {
    String v = ex.getRequestHeaders().getFirst(name);
    if (v == null) {
      throw new UploadError(400, UploadError.BAD_REQUEST, "the " + name + " header is required");
    }
    try {
      return Integer.parseInt(v.strip());
    } catch (NumberFormatException e) {
      throw new UploadError(400, UploadError.BAD_REQUEST, name + " is not a number");
    }
  }

  private static void fail(HttpExchange ex, String uuid, int status, String code, String text) throws IOException {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("success", false);
    m.put("uuid", uuid);
    Map<String, Object> err = new LinkedHashMap<>();
    err.put("Code", code);
    err.put("Text", text);
    m.put("error", err);
    m.put("status", status);
    reply(ex, status, m);
  }

  private static void reply(HttpExchange ex, int status, Map<String, Object> body) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(body);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }
}
