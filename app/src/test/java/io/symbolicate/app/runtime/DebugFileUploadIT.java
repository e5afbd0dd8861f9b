package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.symbols.testing.SharedFixtures;
import io.symbolicate.testkit.EmbeddedKafka;
import io.symbolicate.testkit.EmbeddedS3;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The debug-file upload routes end to end, on the real broker and the real S3 server (`run`
 * with the API and uploads): symbolic's ELF debug file sent to its key lands in the bucket in the
 * native layout and is announced on symbols.uploads; a URL naming another id is refused with
 * both ids and leaves nothing; a fat dSYM zipped as a bundle is stored slice by slice.
 */
class DebugFileUploadIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String KEY = "debug-file-upload-key";
  static final String STAGING = ConfigKeys.UPLOAD_STAGING_PREFIX.defaultValue();
  static final Path DIFS = SharedFixtures.fixtures("difs").resolve("getsentry-symbolic/testutils");

  /** symbolic's linux/crash.sym MODULE line. */
  static final String CRASH_ID = "C0BCC3F19827FE653058404B2831D9E60";

  /** Example.framework.dSYM's slices (llvm-objdump, as MachOFileTest quotes them). */
  static final String EXAMPLE_X86_64 = "3B4566E4491B3DCF94F5AE51F624DD870";

  static final String EXAMPLE_ARM64 = "2556F1515A403847BE6CE2C1B5BE4DF80";

  private static EmbeddedKafka kafka;
  private static EmbeddedS3 s3;
  @TempDir static Path s3Dir;
  @TempDir Path state;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    kafka = EmbeddedKafka.start();
    s3 = EmbeddedS3.startOnDirectory(s3Dir);
  }

  @AfterAll
  static void stop() {
    if (s3 != null) {
      s3.close();
    }
    kafka.close();
  }

  private AppConfig cfg(String bucket) {
    AppConfig cfg =
        AppConfig.defaults()
            .set("bootstrap.servers", kafka.bootstrapServers())
            .set("application.id", bucket + "-app")
            .set("state.dir", state.toString())
            .set("topics.partitions", "1")
            .set("streams.commit.interval.ms", "100")
            .set("loader.warmup", "false")
            .set("http.enabled", "true")
            .set("http.port", "0")
            .set("upload.enabled", "true")
            .set("api.keys", ApiKeys.hash(KEY) + "=global:upload");
    for (String t :
        List.of(
            "raw", "symbolicated", "dlq", "requests", "tables", "index", "uploads", "missing")) {
      cfg.set("topic." + t, bucket + "." + t);
    }
    cfg.set("symbols.s3.bucket", bucket)
        .set("symbols.s3.endpoint", s3.endpoint().toString())
        .set("symbols.s3.path-style", "true");
    System.setProperty("aws.accessKeyId", EmbeddedS3.ACCESS_KEY);
    System.setProperty("aws.secretAccessKey", EmbeddedS3.SECRET_KEY);
    return cfg;
  }

  /**
   * The bucket's keys outside the upload staging area, after checking that the staging area holds
   * nothing but the marks of stored files (kept until their expiry, issue 43).
   */
  private List<String> bucketKeys(String bucket) {
    try (var client = s3.client()) {
      List<String> keys =
          client.listObjectsV2Paginator(b -> b.bucket(bucket)).contents().stream()
              .map(S3Object::key)
              .toList();
      assertThat(keys.stream().filter(k -> k.startsWith(STAGING)))
          .as("nothing staged but the marks of stored files")
          .allMatch(k -> k.endsWith(".assembled"));
      return keys.stream().filter(k -> !k.startsWith(STAGING)).toList();
    }
  }

  private HttpResponse<String> send(URI base, String method, String path, byte[] body)
      throws Exception {
    return http.send(
        HttpRequest.newBuilder(base.resolve(path))
            .header("Authorization", "APIKey " + KEY)
            .method(method, HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The keys of the records on the uploads topic, read until {@code n} arrived or 30 s. */
  private List<String> announced(String bucket, int n) {
    Properties cp = new Properties();
    cp.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    cp.put(ConsumerConfig.GROUP_ID_CONFIG, bucket + "-reader");
    cp.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    List<String> keys = new ArrayList<>();
    try (var consumer =
        new KafkaConsumer<>(cp, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(bucket + ".uploads"));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (keys.size() < n && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          keys.add(new String(r.key(), StandardCharsets.UTF_8));
        }
      }
    }
    return keys;
  }

  @Test
  void debugFilesLandInTheBucketInTheNativeLayoutAndAreAnnounced() throws Exception {
    String bucket = "dif" + System.nanoTime() % 100000;
    try (var client = s3.client()) {
      client.createBucket(b -> b.bucket(bucket));
    }
    byte[] debug = Files.readAllBytes(DIFS.resolve("linux/crash.debug"));
    Path fat = DIFS.resolve("macos/Example.framework.dSYM/Contents");
    ByteArrayOutputStream zip = new ByteArrayOutputStream();
    try (ZipOutputStream z = new ZipOutputStream(zip)) {
      z.putNextEntry(new ZipEntry("Example.framework.dSYM/Contents/Info.plist"));
      z.write(Files.readAllBytes(fat.resolve("Info.plist")));
      z.putNextEntry(new ZipEntry("Example.framework.dSYM/Contents/Resources/DWARF/Example"));
      z.write(Files.readAllBytes(fat.resolve("Resources/DWARF/Example")));
    }
    try (SymbolicatorApp app = SymbolicatorApp.start(cfg(bucket))) {
      URI api = app.api().server().uri();

      // the URL names the Mac crash's id: refused with both, nothing stays
      HttpResponse<String> wrong =
          send(api, "PUT", "/api/symbols/crash/67E9247C814E392BA027DBDE6748FCBF0/crash", debug);
      assertThat(wrong.statusCode()).as(wrong.body()).isEqualTo(400);
      JsonNode err = JSON.readTree(wrong.body()).get("error");
      assertThat(err.get("Code").asText()).isEqualTo("1006");
      assertThat(err.get("Text").asText())
          .contains("67E9247C814E392BA027DBDE6748FCBF0")
          .contains(CRASH_ID);
      assertThat(bucketKeys(bucket)).isEmpty();

      HttpResponse<String> ok =
          send(api, "PUT", "/api/symbols/crash/" + CRASH_ID + "/crash", debug);
      assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
      HttpResponse<String> dsym = send(api, "POST", "/api/symbols-debugfile", zip.toByteArray());
      assertThat(dsym.statusCode()).as(dsym.body()).isEqualTo(200);

      assertThat(bucketKeys(bucket))
          .containsExactlyInAnyOrder(
              "crash/" + CRASH_ID + "/crash",
              "Example/" + EXAMPLE_X86_64 + "/Example",
              "Example/" + EXAMPLE_ARM64 + "/Example");
      try (var client = s3.client()) {
        assertThat(
                client
                    .getObjectAsBytes(x -> x.bucket(bucket).key("crash/" + CRASH_ID + "/crash"))
                    .asByteArray())
            .isEqualTo(debug);
      }
      assertThat(announced(bucket, 3))
          .containsExactlyInAnyOrder(
              "global|N|crash/" + CRASH_ID,
              "global|N|Example/" + EXAMPLE_X86_64,
              "global|N|Example/" + EXAMPLE_ARM64);
    }
  }

  /** From symbolic's windows/crash.sym, which Breakpad's dump_syms.exe wrote of crash.pdb. */
  static final String PDB_ID = "3249D99D0C4049318610F4E4FB0B69361";

  static final String PE_CODE_ID = "5AB380779000";

  @Test
  void aPdbAndItsPeImageLandUnderTheirIdsAndAMismatchLeavesNothing() throws Exception {
    String bucket = "win" + System.nanoTime() % 100000;
    try (var client = s3.client()) {
      client.createBucket(b -> b.bucket(bucket));
    }
    byte[] pdb = Files.readAllBytes(DIFS.resolve("windows/crash.pdb"));
    byte[] exe = Files.readAllBytes(DIFS.resolve("windows/crash.exe"));
    try (SymbolicatorApp app = SymbolicatorApp.start(cfg(bucket))) {
      URI api = app.api().server().uri();
      // the PE's code id in the PDB's URL: refused naming both, nothing stays
      HttpResponse<String> wrong =
          send(api, "PUT", "/api/symbols/crash.pdb/" + PE_CODE_ID + "/crash.pdb", pdb);
      assertThat(wrong.statusCode()).as(wrong.body()).isEqualTo(400);
      JsonNode err = JSON.readTree(wrong.body()).get("error");
      assertThat(err.get("Code").asText()).isEqualTo("1006");
      assertThat(err.get("Text").asText()).contains(PE_CODE_ID).contains(PDB_ID);
      assertThat(bucketKeys(bucket)).noneMatch(k -> !k.startsWith("upload-staging/"));

      HttpResponse<String> ok =
          send(api, "PUT", "/api/symbols/crash.pdb/" + PDB_ID + "/crash.pdb", pdb);
      assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
      HttpResponse<String> image =
          send(api, "PUT", "/api/symbols/crash.exe/" + PE_CODE_ID + "/crash.exe", exe);
      assertThat(image.statusCode()).as(image.body()).isEqualTo(200);
      // the staging area shares the bucket (upload.staging.bucket unset): its keys left out
      assertThat(bucketKeys(bucket).stream().filter(k -> !k.startsWith("upload-staging/")))
          .containsExactlyInAnyOrder(
              "crash.pdb/" + PDB_ID + "/crash.pdb",
              "crash.exe/" + PE_CODE_ID + "/crash.exe",
              "crash.exe/" + PDB_ID + "/crash.exe");
      assertThat(announced(bucket, 2))
          .contains("global|N|crash.pdb/" + PDB_ID, "global|N|crash.exe/" + PDB_ID);
    }
  }
}
