package io.symbolicate.connectors.source;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * An HTTP symbol server such as Mozilla's download API: {@code GET <base>/<key>}, following
 * redirects (the server usually redirects to a storage bucket). 404 means missing; 5xx, 429 and
 * network errors are transient.
 */
public final class HttpSource implements SymbolSource {
  private final URI base;
  private final HttpClient client;
  private final Duration timeout;

  public HttpSource(URI base, Duration timeout) {
    String b = base.toString();
    this.base = URI.create(b.endsWith("/") ? b : b + "/");
    this.timeout = timeout;
    this.client =
        HttpClient.newBuilder()
            .followRedirects(HttpClient.Redirect.NORMAL)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
  }

  @Override
  public String type() {
    return "http";
  }

  @Override
  public String name() {
    return base.getScheme()
        + "://"
        + base.getHost()
        + (base.getPort() < 0 ? "" : ":" + base.getPort())
        + base.getPath();
  }

  @Override
  public FetchResult fetch(String key) {
    URI uri = base.resolve(encodePath(key));
    HttpRequest req =
        HttpRequest.newBuilder(uri)
            .timeout(timeout)
            .GET()
            .header("User-Agent", "symbolicate/0.1")
            .build();
    try {
      HttpResponse<InputStream> resp = client.send(req, HttpResponse.BodyHandlers.ofInputStream());
      int status = resp.statusCode();
      if (status == 200) {
        long len = resp.headers().firstValueAsLong("Content-Length").orElse(-1);
        return new FetchResult.Found(uri.toString(), len, resp.body());
      }
      resp.body().close();
      if (status == 404 || status == 410 || status == 403) {
        return new FetchResult.NotFound(uri + " (" + status + ")");
      }
      return new FetchResult.Failed(uri.toString(), "HTTP " + status);
    } catch (IOException e) {
      return new FetchResult.Failed(uri.toString(), e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new FetchResult.Failed(uri.toString(), "interrupted");
    }
  }

  /** As the default, and an absolute URL under this server's base as the key it names there. */
  @Override
  public String keyOfPointer(String path) {
    if (path != null && path.startsWith(base.toString())) {
      return FilePointer.relativeKey(path.substring(base.toString().length()));
    }
    return FilePointer.relativeKey(path);
  }

  /** Percent-encodes each path segment (the layout already validated them). */
  static String encodePath(String key) {
    StringBuilder b = new StringBuilder();
    for (String seg : key.split("/", -1)) {
      if (b.length() > 0) {
        b.append('/');
      }
      b.append(URLEncoder.encode(seg, StandardCharsets.UTF_8).replace("+", "%20"));
    }
    return b.toString();
  }
}
