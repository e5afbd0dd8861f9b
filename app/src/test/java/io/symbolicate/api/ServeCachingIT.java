package io.symbolicate.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.runtime.ApiRuntime;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve}'s local table cache follows the stream's caching rules: a missing module is
 * cached as missing until its retry time, a malformed one until a restart, and found tables
 * survive a restart (no new download), but not {@code cache.unused.ttl.ms} without use.
 */
class ServeCachingIT {
  static final String ID = "0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0";
  @TempDir Path symbols;
  @TempDir Path cache;

  private ApiRuntime.Running serve() throws Exception {
    return ApiRuntime.serve(
        AppConfig.defaults()
            .set("symbols.dir", symbols.toString())
            .set("http.port", "0")
            .set("http.cache.dir", cache.toString())
            .set("cache.missing.retry.ms", "1500"));
  }

  private static String body(String file) {
    return "{\"debug\": true, \"jobs\": [{\"memoryMap\": [[\""
        + file
        + "\", \""
        + ID
        + "\"]], \"stacks\": [[[0, 6688]]]}]}";
  }

  private static boolean found(ApiClient c, String file) throws Exception {
    var r = c.post("/symbolicate/v5", body(file));
    assertThat(r.status()).isEqualTo(200);
    return r.json().at("/results/0/found_modules/" + file + "~1" + ID).asBoolean();
  }

  private void place(String file, byte[] content) throws Exception {
    Path dir = symbols.resolve(file).resolve(ID);
    Files.createDirectories(dir);
    Files.write(dir.resolve(file + ".sym"), content);
  }

  @Test
  void missingIsCachedUntilItsRetryTimeAndMalformedUntilARestart() throws Exception {
    byte[] sym;
    try (InputStream in = ServeCachingIT.class.getResourceAsStream("/demo/crashy.sym")) {
      sym = in.readAllBytes();
    }
    place("broken", "garbage\u0000\u0001 not a sym file".getBytes());
    try (ApiRuntime.Running api = serve()) {
      ApiClient c = new ApiClient(api.server().uri());
      assertThat(found(c, "crashy")).isFalse();
      place("crashy", sym);
      assertThat(found(c, "crashy")).as("cached as missing: not looked for again yet").isFalse();
      Thread.sleep(1600);
      assertThat(found(c, "crashy")).as("retry time passed: loaded now").isTrue();
      var r = c.post("/symbolicate/v5", body("crashy"));
      assertThat(r.json().at("/results/0/stacks/0/0/function").asText()).isEqualTo("main");
      assertThat(r.json().at("/debug/downloads/count").asInt())
          .as("warm: nothing downloaded")
          .isZero();

      assertThat(found(c, "broken")).isFalse();
      place("broken", sym);
      assertThat(found(c, "broken"))
          .as("malformed is kept (24 h) while this instance runs")
          .isFalse();
    }
    try (ApiRuntime.Running api = serve()) {
      ApiClient c = new ApiClient(api.server().uri());
      var r = c.post("/symbolicate/v5", body("crashy"));
      assertThat(r.json().at("/results/0/found_modules/crashy~1" + ID).asBoolean()).isTrue();
      assertThat(r.json().at("/debug/cache_lookups/hits").asInt())
          .as("found table kept on disk")
          .isEqualTo(1);
      assertThat(found(c, "broken")).as("a restart tries a malformed file again").isTrue();
    }
  }

  @Test
  void tablesUnusedForTheTtlAreEvictedAndUsedOnesKept() throws Exception {
    byte[] sym;
    try (InputStream in = ServeCachingIT.class.getResourceAsStream("/demo/crashy.sym")) {
      sym = in.readAllBytes();
    }
    place("crashy", sym);
    place("other", sym);
    AppConfig cfg =
        AppConfig.defaults()
            .set("symbols.dir", symbols.toString())
            .set("http.port", "0")
            .set("http.cache.dir", cache.toString())
            .set("cache.unused.ttl.ms", "3000")
            .set("park.touch.interval.ms", "200");
    try (ApiRuntime.Running api = ApiRuntime.serve(cfg)) {
      ApiClient c = new ApiClient(api.server().uri());
      assertThat(found(c, "crashy")).isTrue();
      assertThat(found(c, "other")).isTrue();
      // keep using crashy past the TTL; other is left alone
      long until = System.currentTimeMillis() + 5500;
      while (System.currentTimeMillis() < until) {
        var r = c.post("/symbolicate/v5", body("crashy"));
        assertThat(r.json().at("/debug/downloads/count").asInt())
            .as("used: never evicted, never reloaded")
            .isZero();
        Thread.sleep(250);
      }
      var other = c.post("/symbolicate/v5", body("other"));
      assertThat(other.json().at("/results/0/found_modules/other~1" + ID).asBoolean()).isTrue();
      assertThat(other.json().at("/debug/cache_lookups/hits").asInt())
          .as("evicted: loaded again")
          .isZero();
      assertThat(other.json().at("/debug/downloads/count").asInt()).isEqualTo(1);
    }
  }
}
