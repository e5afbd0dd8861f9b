package io.symbolicate.connectors.source;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.id.SymbolLayout;
import io.symbolicate.testkit.EmbeddedS3;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;

/** Each source against a real server: s3proxy for S3, the JDK's HTTP server for HTTP. */
class SymbolSourcesIT {
  private static final String KEY = "crashy/0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0/crashy.sym";

  private static String read(FetchResult r) throws IOException {
    assertThat(r).isInstanceOf(FetchResult.Found.class);
    try (InputStream in = ((FetchResult.Found) r).body()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void s3SourceFindsMissesAndReportsAnUnreachableServerAsTransient() throws IOException {
    URI endpoint;
    try (EmbeddedS3 s3 = EmbeddedS3.startInMemory();
        var client = s3.client()) {
      endpoint = s3.endpoint();
      client.createBucket(b -> b.bucket("symbols"));
      client.putObject(
          b -> b.bucket("symbols").key("v1/" + KEY),
          RequestBody.fromString("MODULE Linux x86_64 X crashy\n"));
      var settings =
          new S3Source.Settings(
              "symbols", "v1", "us-east-1", endpoint, true, Duration.ofSeconds(5));
      try (S3Source src =
          S3Source.create(
              settings,
              StaticCredentialsProvider.create(
                  AwsBasicCredentials.create(EmbeddedS3.ACCESS_KEY, EmbeddedS3.SECRET_KEY)))) {
        assertThat(src.name()).isEqualTo("s3://symbols/v1/").doesNotContain(EmbeddedS3.SECRET_KEY);
        assertThat(read(src.fetch(KEY))).startsWith("MODULE Linux");
        assertThat(src.fetch("nope/ABC/nope.sym")).isInstanceOf(FetchResult.NotFound.class);
      }
    }
    // the server is gone now: a transient failure, not "missing"
    var settings =
        new S3Source.Settings("symbols", "", "us-east-1", endpoint, true, Duration.ofSeconds(2));
    try (S3Source src =
        S3Source.create(
            settings,
            StaticCredentialsProvider.create(
                AwsBasicCredentials.create(EmbeddedS3.ACCESS_KEY, EmbeddedS3.SECRET_KEY)))) {
      assertThat(src.fetch(KEY)).isInstanceOf(FetchResult.Failed.class);
    }
  }

  @Test
  void fileSystemSourceStaysInsideItsRoot(@TempDir Path dir) throws IOException {
    Path root = Files.createDirectories(dir.resolve("root"));
    Files.createDirectories(root.resolve(KEY).getParent());
    Files.writeString(root.resolve(KEY), "MODULE mac arm64 X crashy\n");
    Files.writeString(dir.resolve("secret.txt"), "secret");
    FileSystemSource src = new FileSystemSource(root);
    assertThat(read(src.fetch(KEY))).startsWith("MODULE mac");
    assertThat(src.fetch("../secret.txt")).isInstanceOf(FetchResult.NotFound.class);
    assertThat(src.fetch("missing.sym")).isInstanceOf(FetchResult.NotFound.class);
  }

  @Test
  void httpSourceFollowsRedirectsAndTellsMissingFromFailing() throws IOException {
    AtomicInteger flaky = new AtomicInteger();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        ex -> {
          String path = ex.getRequestURI().getRawPath();
          int status;
          byte[] body = new byte[0];
          if (path.equals("/symbols/" + KEY)) {
            ex.getResponseHeaders().add("Location", "/storage/" + KEY);
            status = 302;
          } else if (path.equals("/storage/" + KEY)) {
            body = "MODULE windows x86 X crashy\n".getBytes(StandardCharsets.UTF_8);
            status = 200;
          } else if (path.startsWith("/symbols/flaky")) {
            status = flaky.incrementAndGet() == 1 ? 503 : 404;
          } else if (path.equals("/symbols/My%20App.pdb/AB/My%20App.sym")) {
            body = "MODULE windows x86 AB My App.pdb\n".getBytes(StandardCharsets.UTF_8);
            status = 200;
          } else {
            status = 404;
          }
          ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
          try (OutputStream os = ex.getResponseBody()) {
            os.write(body);
          }
        });
    server.start();
    try {
      URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/symbols");
      HttpSource src = new HttpSource(base, Duration.ofSeconds(5));
      assertThat(read(src.fetch(KEY))).startsWith("MODULE windows");
      assertThat(
              read(
                  src.fetch(
                      SymbolLayout.breakpad(DebugIdentifiers.nativeModule("My App.pdb", "ab"))
                          .get(0))))
          .contains("My App.pdb");
      assertThat(src.fetch("flaky/A/x.sym")).isInstanceOf(FetchResult.Failed.class);
      assertThat(src.fetch("flaky/A/x.sym")).isInstanceOf(FetchResult.NotFound.class);

      // a chain: the first source misses, the second has it
      SourceChain chain =
          new SourceChain(List.of(new FileSystemSource(Path.of("/nonexistent-root")), src));
      assertThat(read(chain.fetch(KEY))).startsWith("MODULE windows");
      // a chain where one source fails transiently and none has it: failed, never missing
      SourceChain failing =
          new SourceChain(
              List.of(
                  new HttpSource(URI.create("http://127.0.0.1:1/"), Duration.ofSeconds(2)), src));
      assertThat(failing.fetch("absent/A/absent.sym")).isInstanceOf(FetchResult.Failed.class);
    } finally {
      server.stop(0);
    }
  }
}
