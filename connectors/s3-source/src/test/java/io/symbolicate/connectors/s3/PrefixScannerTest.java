package io.symbolicate.connectors.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import io.symbolicate.testkit.EmbeddedS3;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/** The listing, offset and reconciliation logic against a real (in-process) S3 server. */
class PrefixScannerTest {
  static final long POLL = 1_000;
  static final long RECONCILE = 60_000;
  static final long LOOKBACK = 5_000;
  static final String A = "a.so/0A/a.so.sym";
  static final String B = "b.so/0B/b.so.sym";
  static final String C = "c.so/0C/c.so.sym";

  static EmbeddedS3 server;
  static S3Client s3;
  static int buckets;
  String bucket;

  @BeforeAll
  static void startServer() {
    server = EmbeddedS3.startInMemory();
    s3 = server.client();
  }

  @AfterAll
  static void stopServer() {
    s3.close();
    server.close();
  }

  @BeforeEach
  void newBucket() {
    bucket = "symbols-" + (++buckets);
    s3.createBucket(b -> b.bucket(bucket));
  }

  void put(String key, String body) {
    s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString(body));
  }

  PrefixScanner scanner(String prefix, int pageSize, SeenKeys seen) {
    return new PrefixScanner(
        s3, bucket, prefix, new PrefixScanner.Settings(pageSize, POLL, RECONCILE, LOOKBACK), seen);
  }

  /** Steps until nothing is due at {@code now}, collecting the announced object keys. */
  static List<String> drain(PrefixScanner sc, long now) {
    List<String> keys = new ArrayList<>();
    while (sc.dueAt() <= now) {
      sc.step(now).forEach(a -> keys.add(a.objectKey()));
    }
    return keys;
  }

  /**
   * Debug files where the upload API puts them are announced too; a {@code .pdb} as the module
   * its bytes say (symbolic's Windows PDB and Portable PDB), a PE image under its PDB's id as the
   * module of that PDB (events name it so), an ELF executable beside its debug file (a 40-digit
   * build id) not at all, nor a {@code .dll} under a PDB id that is not a PE image.
   */
  @Test
  void debugFilesAreAnnouncedAndAPdbAsTheKindItsBytesSay() throws Exception {
    Path fixtures = Path.of(System.getProperty("shared.dir"), "fixtures/difs/getsentry-symbolic");
    String pdb = "crash.pdb/3249D99D0C4049318610F4E4FB0B69361/crash.pdb";
    String portable =
        "scopes/acme/portable.pdb/0123456789ABCDEF0123456789ABCDEF12345678/portable.pdb";
    String elf = "crash.debug/ABCDEF0123456789ABCDEF01234567890/crash.debug";
    String exe = "crash/ABCDEF0123456789ABCDEF0123456789ABCDEF01/crash";
    String empty = "empty.pdb/3249D99D0C4049318610F4E4FB0B69362/empty.pdb";
    String image = "scopes/acme/crash.exe/3249D99D0C4049318610F4E4FB0B69361/crash.exe";
    String notImage = "fake.dll/3249D99D0C4049318610F4E4FB0B693610/fake.dll";
    putFile(pdb, fixtures.resolve("testutils/windows/crash.pdb"));
    putFile(portable, fixtures.resolve("testutils/windows/portable.pdb"));
    putFile(elf, fixtures.resolve("testutils/linux/crash.debug"));
    putFile(exe, fixtures.resolve("testutils/linux/crash"));
    put(empty, "");
    putFile(image, fixtures.resolve("testutils/windows/crash.exe"));
    putFile(notImage, fixtures.resolve("testutils/linux/crash.debug"));
    PrefixScanner sc = scanner("", 100, new SeenKeys(100));
    long t = System.currentTimeMillis();
    sc.start(null, t);
    Map<String, ModuleRef> announced = new HashMap<>();
    while (sc.dueAt() <= t) {
      sc.step(t).forEach(a -> announced.put(a.objectKey(), a.module()));
    }
    assertThat(announced)
        .containsOnly(
            Map.entry(
                pdb,
                new ModuleRef(
                    "global", TableKind.NATIVE, "crash.pdb/3249D99D0C4049318610F4E4FB0B69361")),
            Map.entry(
                portable,
                new ModuleRef(
                    "acme",
                    TableKind.DOTNET,
                    "portable.pdb/0123456789ABCDEF0123456789ABCDEF12345678")),
            Map.entry(
                elf,
                new ModuleRef(
                    "global", TableKind.NATIVE, "crash.debug/ABCDEF0123456789ABCDEF01234567890")),
            Map.entry(
                empty,
                new ModuleRef(
                    "global", TableKind.NATIVE, "empty.pdb/3249D99D0C4049318610F4E4FB0B69362")),
            Map.entry(
                image,
                new ModuleRef(
                    "acme", TableKind.NATIVE, "crash.pdb/3249D99D0C4049318610F4E4FB0B69361")));
    assertThat(sc.skipped()).as("the ELF executable and the .dll that is none").isEqualTo(2);
  }

  void putFile(String key, Path file) {
    s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromFile(file));
  }

  @Test
  void incrementalListingAnnouncesEachNewSymbolFileOnceAcrossPages() {
    put(A, "1");
    put("notes/readme.txt", "x");
    put(B, "1");
    PrefixScanner sc = scanner("", 1, new SeenKeys(100));
    long t = System.currentTimeMillis();
    sc.start(null, t);
    assertThat(drain(sc, t)).containsExactly(A, B);
    assertThat(sc.skipped()).isEqualTo(1);
    assertThat(sc.offset()).containsEntry(PrefixScanner.AFTER, "notes/readme.txt");
    String z = "z.so/0D/z.so.sym"; // sorts after the offset
    put(z, "1");
    assertThat(drain(sc, t)).as("not due before the poll interval").isEmpty();
    assertThat(drain(sc, t + POLL)).containsExactly(z);
    assertThat(drain(sc, t + 2 * POLL)).isEmpty();
  }

  @Test
  void reconciliationFindsALateKeyBelowTheOffsetAndAChangedEtagButNotUnchangedObjects() {
    put(A, "1");
    put(C, "1");
    PrefixScanner sc = scanner("", 1000, new SeenKeys(100));
    long t = System.currentTimeMillis();
    sc.start(null, t);
    assertThat(drain(sc, t)).containsExactly(A, C);
    put(B, "late"); // sorts before the offset (C): the incremental listing cannot see it
    put(A, "changed");
    assertThat(drain(sc, t + POLL)).isEmpty();
    List<String> reconciled = drain(sc, t + RECONCILE);
    assertThat(reconciled).containsExactly(A, B);
    assertThat(drain(sc, t + 2 * RECONCILE)).as("an unchanged object never twice").isEmpty();
  }

  @Test
  void aRestartResumesAfterTheOffsetAndTheReconciliationAnnouncesOnlyWhatWasWrittenSinceTheLastOne()
      throws Exception {
    put(A, "1");
    put(B, "1");
    Thread.sleep(1_100); // LastModified has a resolution of one second
    long reconciled = System.currentTimeMillis();
    Thread.sleep(1_100);
    // written while the task was away: C after the offset, a late key below it
    String late = "a.so/0B/a.so.sym";
    put(C, "1");
    put(late, "late");
    Map<String, Object> offset =
        Map.of(PrefixScanner.AFTER, B, PrefixScanner.RECONCILED, reconciled);
    PrefixScanner resumed =
        new PrefixScanner(
            s3,
            bucket,
            "",
            new PrefixScanner.Settings(1000, POLL, RECONCILE, 0),
            new SeenKeys(100)); // remembers nothing
    long t = System.currentTimeMillis();
    resumed.start(offset, t);
    assertThat(drain(resumed, t)).containsExactlyInAnyOrder(C, late);
    assertThat(drain(resumed, t + RECONCILE))
        .as("covered by the reconciliation just done")
        .isEmpty();
  }

  @Test
  void prefixesAreListedApart() {
    put("scopes/acme/" + A, "1");
    put("scopes/beta/" + B, "1");
    PrefixScanner acme = scanner("scopes/acme/", 1000, new SeenKeys(10));
    long t = System.currentTimeMillis();
    acme.start(null, t);
    assertThat(drain(acme, t)).containsExactly("scopes/acme/" + A);
  }
}
