package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.api.ApiServer;
import io.symbolicate.api.ApiSettings;
import io.symbolicate.api.ApiSymbolicator;
import io.symbolicate.api.ApiSymbols;
import io.symbolicate.api.Symbolication;
import io.symbolicate.api.analytics.CrashQueries;
import io.symbolicate.api.auth.Action;
import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.api.auth.ScopeAccess;
import io.symbolicate.api.collect.CollectorLimits;
import io.symbolicate.api.collect.CollectorService;
import io.symbolicate.api.collect.DumpStore;
import io.symbolicate.api.collect.SubmitHandler;
import io.symbolicate.api.collect.SubmitKeys;
import io.symbolicate.api.server.Route;
import io.symbolicate.api.server.RouteTable;
import io.symbolicate.api.status.StatusSnapshot;
import io.symbolicate.api.upload.DirectoryUploadStore;
import io.symbolicate.api.upload.UploadLimits;
import io.symbolicate.api.upload.UploadService;
import io.symbolicate.app.metrics.AppMetrics;
import io.symbolicate.app.metrics.Health;
import io.symbolicate.app.metrics.HealthHandler;
import io.symbolicate.schema.RequestReason;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.symbolication.store.TableReader;
import io.symbolicate.symbols.table.ModuleRef;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The route table the app fills ({@link ApiRuntime#routes}) against {@link Route}: with every
 * part on, every route is served; each answers the methods its row lists and refuses the others
 * with 405; each refuses a key without its row's action (403), and a route without an action
 * takes no key.
 */
class RouteTableTest {
  /** A key for every action but one, per action; and one for none at all. */
  private static final Map<Action, String> ALL_BUT =
      Map.of(
          Action.SYMBOLICATE, "no-symbolicate",
          Action.UPLOAD, "no-upload",
          Action.SUBMIT, "no-submit");

  private static final List<String> METHODS =
      List.of("GET", "HEAD", "POST", "OPTIONS", "PUT", "DELETE");

  @TempDir static Path dir;
  private static RouteTable table;
  private static ApiServer server;
  private static UploadService uploads;
  private static CollectorService collector;
  private static AppMetrics metrics;
  private static final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeAll
  static void start() throws Exception {
    StringBuilder keys = new StringBuilder();
    for (Map.Entry<Action, String> k : ALL_BUT.entrySet()) {
      StringBuilder actions = new StringBuilder();
      for (Action a : Action.values()) {
        if (a != k.getKey()) {
          actions.append(actions.length() == 0 ? "" : "+").append(a.configName());
        }
      }
      keys.append(keys.length() == 0 ? "" : ",")
          .append(ApiKeys.hash(k.getValue()))
          .append("=acme:")
          .append(actions);
    }
    ApiKeys apiKeys = ApiKeys.parse(keys.toString());
    ApiSettings settings = ApiSettings.defaults().withPort(0);
    Symbolication symbolication =
        new Symbolication(new ApiSymbolicator(SymbolEngines.steps(), NOTHING), settings)
            .withAccess(new ScopeAccess(apiKeys, Set.of("global")));
    uploads =
        new UploadService(
            new DirectoryUploadStore(dir.resolve("symbols")),
            new DirectoryUploadStore(dir.resolve("staging")),
            m -> {},
            UploadLimits.defaults());
    collector =
        new CollectorService(
            NO_DUMPS,
            "dumps/",
            (k, v) -> CompletableFuture.completedFuture(null),
            CollectorLimits.defaults(),
            System::currentTimeMillis);
    metrics = new AppMetrics();
    Health up = () -> new Health.Report(Health.Status.UP, Map.of());
    table =
        ApiRuntime.routes(
            new ApiRuntime.Parts(
                symbolication,
                uploads,
                apiKeys,
                new SubmitHandler(collector, new SubmitKeys(apiKeys, false)),
                new CrashQueries(() -> null),
                () ->
                    new StatusSnapshot(
                        "2025-01-01T00:00:00Z", null, null, null, null, null, null, null),
                metrics.metricsHandler(),
                new HealthHandler(up)));
    server = ApiServer.start(settings, table);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    uploads.close();
    collector.close();
    metrics.close();
  }

  @Test
  void everyRouteIsServedWhenEveryPartIsOn() {
    assertThat(table.routes()).isEqualTo(EnumSet.allOf(Route.class));
  }

  @Test
  void everyRouteAnswersItsMethodsAndRefusesTheOthers() throws Exception {
    List<String> wrong = new ArrayList<>();
    for (Route r : Route.values()) {
      for (String m : METHODS) {
        int status = send(r, m, null).statusCode();
        boolean listed = r.methods().contains(m);
        if (listed == (status == 405)) {
          wrong.add(m + " " + r.path() + ": " + status + (listed ? " (listed)" : " (not listed)"));
        }
      }
    }
    assertThat(wrong).as("answers that disagree with the table's methods").isEmpty();
  }

  @Test
  void everyRouteTakesTheKeyOfItsAction() throws Exception {
    List<String> wrong = new ArrayList<>();
    for (Route r : Route.values()) {
      if (r.action() != null) {
        // a valid key allowed everything but this route's action
        int status = send(r, r.methods().get(0), "APIKey " + ALL_BUT.get(r.action())).statusCode();
        if (status != 403) {
          wrong.add(r + " with a key that may not " + r.action().configName() + ": " + status);
        }
      } else {
        // a route without an action does not look at keys
        int status = send(r, r.methods().get(0), "APIKey not-a-key").statusCode();
        if (status == 401 || status == 403) {
          wrong.add(r + " takes no key, but refused one: " + status);
        }
      }
    }
    assertThat(wrong).as("answers that disagree with the table's actions").isEmpty();
  }

  private static HttpResponse<String> send(Route r, String method, String authorization)
      throws Exception {
    URI uri = server.uri().resolve(r.isPrefix() ? r.prefix() + "some-name" : r.path());
    HttpRequest.Builder b =
        HttpRequest.newBuilder(uri)
            .timeout(Duration.ofSeconds(10))
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (authorization != null) {
      b.header("Authorization", authorization);
    }
    if (r == Route.SUBMIT) {
      // the collector reads the key once the body is known to be a form
      b.header("Content-Type", "multipart/form-data; boundary=b");
    }
    if (r.action() == Action.UPLOAD) {
      b.header("FileID", "AAAAAAAAAAAAAAAAAAAAAA").header("FilePart", "0").header("FileParts", "1");
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static final ApiSymbols NOTHING =
      new ApiSymbols() {
        private final PageCache cache = new PageCache(1 << 20);

        @Override
        public TableReader tables() {
          return key -> null;
        }

        @Override
        public PageCache pageCache() {
          return cache;
        }

        @Override
        public void request(ModuleRef ref, RequestReason reason) {}
      };

  /** The collector's dump store: never reached by these requests. */
  private static final DumpStore NO_DUMPS =
      new DumpStore() {
        @Override
        public String bucket() {
          return "dumps";
        }

        @Override
        public Stored put(String key, InputStream in) {
          throw new UnsupportedOperationException("no dump is stored here");
        }

        @Override
        public void putSmall(String key, byte[] bytes) {
          throw new UnsupportedOperationException("no dump is stored here");
        }

        @Override
        public byte[] getSmall(String key, int max) {
          return null;
        }

        @Override
        public void delete(String key) {}

        @Override
        public List<Listed> list(String prefix, int max) {
          return List.of();
        }
      };
}
