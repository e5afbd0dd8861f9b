package io.symbolicate.demo;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

/**
 * The demo's client of the app's HTTP API: only its public routes, as a user's tools would call
 * them (the upload routes with an API key, {@code /submit} in Breakpad's multipart format, the
 * top crashers, the status page).
 */
final class DemoHttp {
  /** An answer: the status and the body as text. */
  record Reply(int status, String body) {
    boolean ok() {
      return status == 200;
    }
  }

  private final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final URI root;
  private final String key;
  private final Duration timeout;

  /** {@code timeout}: per request (the demo's, since a loaded machine can be slow to answer). */
  DemoHttp(URI root, String key, Duration timeout) {
    this.root = root;
    this.key = key;
    this.timeout = timeout;
  }

  URI uri(String pathAndQuery) {
    return root.resolve(pathAndQuery);
  }

  /** {@code POST} of a symbol file to an upload route, with the key and the route's headers. */
  Reply upload(String route, Map<String, String> headers, byte[] body)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri(route))
            .timeout(timeout)
            .header("Authorization", "APIKey " + key)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    headers.forEach(b::header);
    return send(b.build());
  }

  /**
   * {@code POST /submit} as Breakpad's {@code minidump_upload} sends a report: multipart/form-data
   * with the product, the version and the dump in {@code upload_file_minidump}.
   */
  Reply submit(String product, String version, byte[] dump)
      throws IOException, InterruptedException {
    String boundary = "demo-" + UUID.randomUUID();
    StringBuilder head = new StringBuilder();
    field(head, boundary, "ProductName", product);
    field(head, boundary, "Version", version);
    head.append("--")
        .append(boundary)
        .append("\r\nContent-Disposition: form-data; name=\"upload_file_minidump\";")
        .append(" filename=\"crash.dmp\"\r\nContent-Type: application/octet-stream\r\n\r\n");
    byte[] start = head.toString().getBytes(StandardCharsets.UTF_8);
    byte[] end = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
    byte[] body = new byte[start.length + dump.length + end.length];
    System.arraycopy(start, 0, body, 0, start.length);
    System.arraycopy(dump, 0, body, start.length, dump.length);
    System.arraycopy(end, 0, body, start.length + dump.length, end.length);
    return send(
        HttpRequest.newBuilder(uri("/submit"))
            .timeout(timeout)
            .header("Authorization", "APIKey " + key)
            .header("Content-Type", "multipart/form-data; boundary=" + boundary)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build());
  }

  Reply get(String pathAndQuery) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri(pathAndQuery)).timeout(timeout).build());
  }

  private Reply send(HttpRequest r) throws IOException, InterruptedException {
    HttpResponse<String> a = client.send(r, HttpResponse.BodyHandlers.ofString());
    return new Reply(a.statusCode(), a.body());
  }

  private static void field(StringBuilder b, String boundary, String name, String value) {
    b.append("--")
        .append(boundary)
        .append("\r\nContent-Disposition: form-data; name=\"")
        .append(name)
        .append("\"\r\n\r\n")
        .append(value)
        .append("\r\n");
  }
}
