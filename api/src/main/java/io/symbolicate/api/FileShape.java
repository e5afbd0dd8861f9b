package io.symbolicate.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.multipart.MultipartForm;

/**
 * What a symbolication endpoint that takes a file as {@code multipart/form-data} answers
 * (Symbolicator's {@code /minidump} and {@code /applecrashreport}): its {@link FileHandler}
 * receives the body, admits it, splits the form and hands it over with the request's scope and
 * deadline; the route reads its file, symbolicates with the shared {@link ApiSymbolicator} and
 * answers JSON. Refusals are {@link ApiException}s (400 for a bad file, 413 over a limit).
 */
public interface FileShape {

  /** The largest request body (the file and the other fields), beyond which the answer is 413. */
  long maxBodyBytes();

  JsonNode answer(
      MultipartForm form,
      String scope,
      long deadlineMillis,
      ApiSymbolicator symbolicator,
      ApiSettings settings)
      throws InterruptedException;
}
