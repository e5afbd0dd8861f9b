package io.symbolicate.api.upload;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.testkit.EmbeddedS3;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Upload assembly under concurrent schedules (issue 43), on both stores: many threads send the
 * parts of a few uploads, several clients per upload and every part more than once, in an order
 * and with pauses drawn from a seed (printed, and replayed by {@link #SEEDS}). Every request ends
 * in a stored file or a 200 while parts are missing, never an error; each upload is stored once
 * with its bytes, announced at least once, and nothing is left staged.
 */
class UploadStoreRaceTest {
  /** Seeds run every build; add the seed of any failure here. */
  static final long[] SEEDS = {43L, 20261202L, 7L, 1058L};

  static final int UPLOADS = 4;
  static final int PARTS = 3;
  static final int CLIENTS_PER_UPLOAD = 3;

  @TempDir Path dir;

  /** Places the assembled file as it is, under its id. */
  static final UploadFormat AS_IS =
      new UploadFormat() {
        @Override
        public String stagingName() {
          return "race";
        }

        @Override
        public List<Placement> place(String scope, String id, Path file, Path work) {
          return List.of(
              new Placement("race/" + id, file, new ModuleRef(scope, TableKind.NATIVE, id)));
        }
      };

  static byte[] part(int upload, int part) {
    return ("upload " + upload + " part " + part + ";").getBytes(StandardCharsets.US_ASCII);
  }

  void race(UploadStore symbols, UploadStore staging, long seed) throws Exception {
    System.out.println("UploadStoreRaceTest seed " + seed);
    ConcurrentHashMap<ModuleRef, AtomicInteger> announced = new ConcurrentHashMap<>();
    UploadService service =
        new UploadService(
            symbols,
            staging,
            m -> announced.computeIfAbsent(m, k -> new AtomicInteger()).incrementAndGet(),
            UploadLimits.defaults().withRequestsInFlight(64));
    Random random = new Random(seed);
    List<int[]> sends = new ArrayList<>();
    for (int u = 0; u < UPLOADS; u++) {
      for (int c = 0; c < CLIENTS_PER_UPLOAD; c++) {
        for (int p = 0; p < PARTS; p++) {
          sends.add(new int[] {u, p, random.nextInt(20)});
        }
      }
    }
    Collections.shuffle(sends, random);
    Path bodies = Files.createDirectories(dir.resolve("bodies-" + seed));
    ExecutorService pool = Executors.newFixedThreadPool(16);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<?>> done = new ArrayList<>();
    try {
      int n = 0;
      for (int[] s : sends) {
        Path body = bodies.resolve("b" + n++);
        Files.write(body, part(s[0], s[1]));
        done.add(
            pool.submit(
                () -> {
                  go.await();
                  Thread.sleep(s[2]);
                  service.receive("acme", AS_IS, "u" + s[0], s[1], PARTS, body);
                  return null;
                }));
      }
      go.countDown();
      for (Future<?> f : done) {
        f.get(); // any UploadError or IOException fails the test here
      }
    } finally {
      pool.shutdownNow();
    }
    for (int u = 0; u < UPLOADS; u++) {
      StringBuilder expected = new StringBuilder();
      for (int p = 0; p < PARTS; p++) {
        expected.append(new String(part(u, p), StandardCharsets.US_ASCII));
      }
      try (InputStream in = symbols.open("race/u" + u)) {
        assertThat(in).as("upload " + u + " stored (seed " + seed + ")").isNotNull();
        assertThat(new String(in.readAllBytes(), StandardCharsets.US_ASCII))
            .isEqualTo(expected.toString());
      }
      assertThat(announced.get(new ModuleRef("acme", TableKind.NATIVE, "u" + u)))
          .as("announced (seed " + seed + ")")
          .isNotNull();
    }
    List<String> left =
        staging.list("", 1000).stream()
            .map(UploadStore.StoredObject::key)
            .filter(k -> !k.endsWith(UploadService.DONE_SUFFIX))
            .toList();
    assertThat(left)
        .as("nothing staged but the marks of stored files (seed " + seed + ")")
        .isEmpty();
    assertThat(staging.folders("acme/", 100)).as("no upload folder left").isEmpty();
  }

  @Test
  void directoryStoreAssemblesEachUploadOnceWhateverTheSchedule() throws Exception {
    for (long seed : SEEDS) {
      Path root = Files.createDirectories(dir.resolve("dir-" + seed));
      race(
          new DirectoryUploadStore(root.resolve("symbols")),
          new DirectoryUploadStore(root.resolve("staging")),
          seed);
    }
  }

  @Test
  void s3StoreAssemblesEachUploadOnceWhateverTheSchedule() throws Exception {
    try (EmbeddedS3 s3 = EmbeddedS3.startOnDirectory(Files.createDirectories(dir.resolve("s3")));
        S3Client client = s3.client()) {
      // two seeds: the S3 server is slower
      for (long seed : new long[] {SEEDS[0], SEEDS[1]}) {
        String bucket = "race-" + seed;
        client.createBucket(b -> b.bucket(bucket));
        race(
            new S3UploadStore(client, bucket, "symbols/"),
            new S3UploadStore(client, bucket, "upload-staging/"),
            seed);
      }
    }
  }

  /**
   * Seeds 1000 and up, 25 of them each build ({@code -Drace.schedules=N} for a longer soak):
   * seed 1058 of such a run found folders deleted between their creation and the check that
   * they are folders ({@code createDirectories}' FileAlreadyExistsException, a 500 in CI).
   */
  @Test
  void directoryStoreSurvivesManySchedules() throws Exception {
    for (long seed = 1000; seed < 1000 + Long.getLong("race.schedules", 25); seed++) {
      Path root = Files.createDirectories(dir.resolve("dir-" + seed));
      race(
          new DirectoryUploadStore(root.resolve("symbols")),
          new DirectoryUploadStore(root.resolve("staging")),
          seed);
    }
  }

  @Test
  void aClaimHasOneWinner() throws Exception {
    DirectoryUploadStore store = new DirectoryUploadStore(dir.resolve("claims"));
    assertThat(store.claim("acme/x.assembling")).isTrue();
    assertThat(store.claim("acme/x.assembling")).isFalse();
    store.delete("acme/x.assembling");
    assertThat(store.claim("acme/x.assembling")).isTrue();
    try (EmbeddedS3 s3 = EmbeddedS3.startOnDirectory(Files.createDirectories(dir.resolve("s3c")));
        S3Client client = s3.client()) {
      client.createBucket(b -> b.bucket("claims"));
      S3UploadStore s = new S3UploadStore(client, "claims", "p/");
      assertThat(s.claim("acme/x.assembling")).isTrue();
      assertThat(s.claim("acme/x.assembling")).as("a conditional put").isFalse();
    }
  }
}
