package io.symbolicate.api.sentry;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.ApiException;
import io.symbolicate.api.ApiSettings;
import io.symbolicate.api.ApiSymbolicator;
import io.symbolicate.api.FileHandler;
import io.symbolicate.api.Symbolication;
import io.symbolicate.api.multipart.MultipartForm;

/**
 * One of Symbolicator's file endpoints: a form with one file part, checked {@link FormFields}
 * beside it and a body limit. Subclasses read the file and answer.
 */
public abstract class SymbolicatorFileHandler extends FileHandler {
  private final String fileField;
  private final long maxBodyBytes;

  protected SymbolicatorFileHandler(Symbolication shared, String fileField, long maxBodyBytes) {
    super(shared);
    this.fileField = fileField;
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  public final long maxBodyBytes() {
    return maxBodyBytes;
  }

  @Override
  public final JsonNode answer(
      MultipartForm form,
      String scope,
      long deadlineMillis,
      ApiSymbolicator symbolicator,
      ApiSettings settings)
      throws InterruptedException {
    byte[] file = FormFields.file(form, fileField);
    FormFields.checkOptional(form);
    return answer(file, scope, deadlineMillis, symbolicator, settings);
  }

  /** The answer for the file part's bytes (never empty). */
  protected abstract JsonNode answer(
      byte[] file,
      String scope,
      long deadlineMillis,
      ApiSymbolicator symbolicator,
      ApiSettings settings)
      throws InterruptedException;

  /** A 400 naming the file part: the file did not read. */
  protected final ApiException badFile(Exception cause) {
    return ApiException.badRequest(fileField + ": " + cause.getMessage());
  }
}
