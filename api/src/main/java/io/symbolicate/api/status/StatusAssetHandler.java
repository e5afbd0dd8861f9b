package io.symbolicate.api.status;

import io.symbolicate.api.server.Handler;
import io.symbolicate.api.server.Request;
import io.symbolicate.api.server.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** One of the page's own files ({@code status.js}, {@code status.css}), served from the classpath. */
public final class StatusAssetHandler implements Handler {
  private final byte[] body;
  private final String contentType;

  public StatusAssetHandler(String resource, String contentType) {
    try (InputStream in = StatusAssetHandler.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            "status page asset " + resource + " is missing from the build");
      }
      this.body = in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.contentType = contentType;
  }

  @Override
  public void handle(Request request, Response response) throws IOException {
    StatusResponses.requireGet(request, response);
    StatusResponses.send(request, response, contentType, body);
  }
}
