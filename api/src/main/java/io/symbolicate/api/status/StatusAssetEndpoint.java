package io.symbolicate.api.status;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** One of the page's own files ({@code status.js}, {@code status.css}), served from the classpath. */
public final class StatusAssetEndpoint implements HttpHandler {
  private final byte[] body;
  private final String contentType;

  public StatusAssetEndpoint(String resource, String contentType) {
    try (InputStream in = StatusAssetEndpoint.class.getResourceAsStream(resource)) {
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
  public void handle(HttpExchange ex) throws IOException {
    StatusResponses.requireGet(ex);
    StatusResponses.send(ex, contentType, body);
  }
}
