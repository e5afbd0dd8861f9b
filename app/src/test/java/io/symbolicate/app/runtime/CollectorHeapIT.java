package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.api.collect.CollectorService;
import io.symbolicate.api.collect.MultipartBody;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.testkit.EmbeddedKafka;
import io.symbolicate.testkit.EmbeddedS3;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.SequenceInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collector's heap stays bounded while a 100 MB report streams through: {@code symbolicator
 * serve} with the collector runs in a child JVM whose heap ({@link #CHILD_HEAP}) is smaller than
 * the body, a quarter of the {@code -Xmx512m} target, so any whole-body buffer (or a copy of the
 * dump) would fail with OutOfMemoryError; the report is accepted, and the object in S3 and the
 * event both carry the SHA-256 of the 100 MB the client streamed (generated on the fly: the test
 * JVM does not hold them either).
 */
class CollectorHeapIT {
  static final String CHILD_HEAP = "-Xmx128m";
  static final long DUMP_BYTES = 100L << 20;

  @TempDir Path dir;

  /** {@code n} pseudo-random bytes (xorshift), made as they are read; incompressible. */
  static InputStream generated(long n) {
    return new InputStream() {
      long left = n;
      long x = 0x9E3779B97F4A7C15L;

      @Override
      public int read() {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) {
        if (left == 0) {
          return -1;
        }
        int k = (int) Math.min(len, left);
        for (int i = 0; i < k; i++) {
          x ^= x << 13;
          x ^= x >>> 7;
          x ^= x << 17;
          b[off + i] = (byte) x;
        }
        left -= k;
        return k;
      }
    };
  }

  @Test
  void a100MbReportStreamsThroughAHeapSmallerThanItself() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start();
        EmbeddedS3 s3 = EmbeddedS3.startOnDirectory(Files.createDirectories(dir.resolve("s3")))) {
      try (var client = s3.client()) {
        client.createBucket(b -> b.bucket("dumps"));
      }
      kafka.createTopics(1, "heap.raw");
      Path symbols = Files.createDirectories(dir.resolve("symbols"));
      Path log = dir.resolve("child.log");
      List<String> cmd =
          new ArrayList<>(
              List.of(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  CHILD_HEAP,
                  "-XX:+ExitOnOutOfMemoryError",
                  "-Daws.accessKeyId=" + EmbeddedS3.ACCESS_KEY,
                  "-Daws.secretAccessKey=" + EmbeddedS3.SECRET_KEY,
                  "-cp",
                  System.getProperty("java.class.path"),
                  "io.symbolicate.app.cli.SymbolicatorCli",
                  "serve",
                  "--symbols-dir",
                  symbols.toString(),
                  "--port",
                  "0",
                  "--cache-dir",
                  dir.resolve("cache").toString()));
      for (String s :
          List.of(
              "bootstrap.servers=" + kafka.bootstrapServers(),
              "topic.raw=heap.raw",
              "collector.enabled=true",
              "collector.s3.bucket=dumps",
              "symbols.s3.endpoint=" + s3.endpoint(),
              "symbols.s3.path-style=true",
              "symbols.sources=dir")) {
        cmd.add("--set");
        cmd.add(s);
      }
      Process child = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
      try {
        URI base = null;
        BufferedReader out =
            new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while (base == null && (line = out.readLine()) != null) {
          if (line.startsWith("symbolicator: serving ")) {
            base = URI.create(line.substring("symbolicator: serving ".length()).strip());
          }
        }
        assertThat(base).as("the child started: " + tail(log)).isNotNull();

        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        MultipartBody head = new MultipartBody().field("ProductName", "Big").field("Version", "1");
        byte[] opening =
            ("--"
                    + MultipartBody.BOUNDARY
                    + "\r\nContent-Disposition: form-data; name=\""
                    + CollectorService.MAIN_DUMP
                    + "\"; filename=\"big.dmp\"\r\nContent-Type: application/octet-stream\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        byte[] closing =
            ("\r\n--" + MultipartBody.BOUNDARY + "--\r\n").getBytes(StandardCharsets.US_ASCII);
        InputStream dump = new DigestInputStream(generated(DUMP_BYTES), sha);
        InputStream body =
            new SequenceInputStream(
                Collections.enumeration(
                    List.of(
                        new ByteArrayInputStream(head.unterminated()),
                        new ByteArrayInputStream(opening),
                        dump,
                        new ByteArrayInputStream(closing))));
        long length = head.unterminated().length + opening.length + DUMP_BYTES + closing.length;
        HttpResponse<String> r =
            HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .build()
                .send(
                    HttpRequest.newBuilder(base.resolve("/submit"))
                        .header("Content-Type", MultipartBody.contentType())
                        .POST(
                            HttpRequest.BodyPublishers.fromPublisher(
                                HttpRequest.BodyPublishers.ofInputStream(() -> body), length))
                        .timeout(Duration.ofMinutes(5))
                        .build(),
                    HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body() + tail(log)).isEqualTo(200);
        assertThat(child.isAlive()).as("no OutOfMemoryError in the child").isTrue();
        Matcher m = CollectorIT.CRASH_ID.matcher(r.body());
        assertThat(m.find()).isTrue();
        String crashId = m.group(1);
        String expected = HexFormat.of().formatHex(sha.digest());

        List<CrashEvent> got =
            CollectorIT.events(
                kafka.bootstrapServers(), "heap.raw", crashId, Duration.ofSeconds(60), 1);
        assertThat(got).hasSize(1);
        var ref = got.get(0).getNative$().getMinidump();
        assertThat(ref.getSize()).isEqualTo(DUMP_BYTES);
        assertThat(ref.getSha256()).isEqualTo(expected);
        try (var client = s3.client();
            InputStream in = client.getObject(b -> b.bucket("dumps").key(ref.getKey()))) {
          MessageDigest stored = MessageDigest.getInstance("SHA-256");
          byte[] buf = new byte[1 << 16];
          long n = 0;
          int k;
          while ((k = in.read(buf)) > 0) {
            stored.update(buf, 0, k);
            n += k;
          }
          assertThat(n).isEqualTo(DUMP_BYTES);
          assertThat(HexFormat.of().formatHex(stored.digest()))
              .as("the object in S3 is what was sent")
              .isEqualTo(expected);
        }
      } finally {
        child.destroy();
        if (!child.waitFor(20, TimeUnit.SECONDS)) {
          child.destroyForcibly();
        }
      }
    }
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log);
      return "\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "";
    }
  }
}
