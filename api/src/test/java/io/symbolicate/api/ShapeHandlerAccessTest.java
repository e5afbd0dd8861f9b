package io.symbolicate.api;

import static io.symbolicate.api.ApiClient.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.api.auth.ScopeAccess;
import io.symbolicate.api.js.JsApiHandler;
import io.symbolicate.api.jvm.JvmApiHandler;
import io.symbolicate.api.nativecode.MozillaV4Handler;
import io.symbolicate.api.nativecode.MozillaV5Handler;
import io.symbolicate.api.server.Route;
import io.symbolicate.api.server.RouteTable;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.RequestReason;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.symbolication.store.PageCache;
import io.symbolicate.symbolication.store.TableReader;
import io.symbolicate.symbols.table.ModuleRef;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keys on the symbolication endpoints, over HTTP: which scope a request reads (a shape that
 * answers with the scope it was given, on a server of its own), and that every real endpoint
 * refuses before parsing.
 */
class ShapeHandlerAccessTest {
  private static final List<String> ROUTES =
      List.of("/symbolicate/v5", "/symbolicate/v4", "/", "/symbolicate-js", "/symbolicate-jvm");
  private static ApiServer server;
  private static ApiServer echoServer;
  private static ApiClient client;

  /** Answers {"scope": the scope the endpoint gave it}. */
  private static final class ScopeEcho extends ShapeHandler<String[]> {
    ScopeEcho(Symbolication shared) {
      super(shared);
    }

    @Override
    public String[] parse(JsonNode body) {
      return new String[1];
    }

    @Override
    public List<CrashEvent> events(String[] request, String scope) {
      request[0] = scope;
      return List.of();
    }

    @Override
    public JsonNode render(String[] request, List<SymbolicatedEvent> results, RequestStats stats) {
      return Json.MAPPER.createObjectNode().put("scope", request[0]);
    }
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

  @BeforeAll
  static void start() throws Exception {
    ApiSettings s =
        new ApiSettings("127.0.0.1", 0, 4, 1 << 20, 1000, Duration.ofSeconds(1), 1, 0)
            .withCors(CorsPolicy.parse("https://listed.example"));
    Symbolication symbolication =
        new Symbolication(new ApiSymbolicator(Map.of(), NOTHING), s)
            .withAccess(
                new ScopeAccess(
                    ApiKeys.parse(
                        ApiKeys.hash("acme-read")
                            + "=acme:symbolicate,"
                            + ApiKeys.hash("acme-upload")
                            + "=acme:upload+submit"),
                    Set.of("global", "demo")));
    RouteTable routes =
        RouteTable.builder()
            .add(Route.SYMBOLICATE_V5, new MozillaV5Handler(symbolication))
            .add(Route.SYMBOLICATE_V4, new MozillaV4Handler(symbolication))
            .add(Route.ROOT, new MozillaV4Handler(symbolication))
            .add(Route.SYMBOLICATE_JS, new JsApiHandler(symbolication, 10))
            .add(Route.SYMBOLICATE_JVM, new JvmApiHandler(symbolication, 10))
            .build();
    server = ApiServer.start(s, routes);
    echoServer = ApiServer.start(s, echoOn(symbolication));
    client = new ApiClient(server.uri());
  }

  /** The scope echo at {@link #ECHO}, over {@code symbolication}'s keys. */
  private static RouteTable echoOn(Symbolication symbolication) {
    return RouteTable.builder().add(ECHO, new ScopeEcho(symbolication)).build();
  }

  /** Where the echo server answers. */
  private static final Route ECHO = Route.SYMBOLICATE_V5;

  @AfterAll
  static void stop() throws Exception {
    server.close();
    echoServer.close();
  }

  @Test
  void theScopeReadIsTheKeysOrAnAnonymousOne() throws Exception {
    assertThat(echo(null, null, null).json().get("scope").asText()).isEqualTo("global");
    assertThat(echo("demo", null, null).json().get("scope").asText()).isEqualTo("demo");
    assertThat(echo(null, "acme-read", null).json().get("scope").asText()).isEqualTo("acme");
    assertThat(echo("acme", "acme-read", null).json().get("scope").asText()).isEqualTo("acme");
    // a listed origin may read a tenant's scope with its key
    assertThat(echo("acme", "acme-read", "https://listed.example").json().get("scope").asText())
        .isEqualTo("acme");
  }

  @Test
  void refusalsSayWhy() throws Exception {
    assertError(
        echo("acme", null, null), 403, "scope 'acme' needs an API key allowed to symbolicate");
    assertError(echo("acme", "wrong", null), 403, "the API key is not valid");
    assertError(
        echo("other", "acme-read", null), 403, "the API key is for scope 'acme', not 'other'");
    assertError(echo("acme", "acme-upload", null), 403, "the API key may not symbolicate");
    assertError(echo("../x", "acme-read", null), 400, "invalid X-Symbolicator-Scope");
    // the CORS rule still holds: a page of an origin not listed reads the global scope only
    assertError(
        echo("acme", "acme-read", "https://elsewhere.example"), 403, "is not allowed from origin");
    assertError(
        echo(null, "acme-read", "https://elsewhere.example"), 403, "not readable from origin");
    assertThat(echo(null, null, "https://elsewhere.example").status()).isEqualTo(200);
  }

  @Test
  void everyEndpointAsksForTheSymbolicateAction() throws Exception {
    for (String path : ROUTES) {
      // refused before the body is parsed: any body will do
      assertError(
          post(path, "acme", null, null, "{"), 403, "needs an API key allowed to symbolicate");
      assertError(post(path, "acme", "acme-upload", null, "{"), 403, "may not symbolicate");
      assertError(post(path, null, "nope", null, "{"), 403, "not valid");
      var badScheme = post(path, null, null, "Bearer acme-read", "{");
      assertThat(badScheme.status()).as(path).isEqualTo(401);
      // allowed: then the body is read (and this one is not JSON)
      assertError(post(path, "acme", "acme-read", null, "{"), 400, "not valid JSON");
      assertError(post(path, null, null, null, "{"), 400, "not valid JSON");
    }
  }

  @Test
  void withoutAnonymousScopesEveryRequestNeedsAKey() throws Exception {
    ApiSettings s = new ApiSettings("127.0.0.1", 0, 2, 1 << 20, 1000, Duration.ofSeconds(1), 1, 0);
    Symbolication symbolication =
        new Symbolication(new ApiSymbolicator(Map.of(), NOTHING), s)
            .withAccess(
                new ScopeAccess(
                    ApiKeys.parse(ApiKeys.hash("g") + "=global:symbolicate"), Set.of()));
    try (ApiServer closed = ApiServer.start(s, echoOn(symbolication))) {
      ApiClient c = new ApiClient(closed.uri());
      var r =
          c.send(
              HttpRequest.newBuilder(closed.uri().resolve(ECHO.path()))
                  .POST(HttpRequest.BodyPublishers.ofString("{}"))
                  .build());
      assertError(r, 401, "Authorization: APIKey header is required");
      assertThat(r.raw().headers().firstValue("WWW-Authenticate")).hasValue("APIKey");
      var ok =
          c.send(
              HttpRequest.newBuilder(closed.uri().resolve(ECHO.path()))
                  .header("Authorization", "APIKey g")
                  .POST(HttpRequest.BodyPublishers.ofString("{}"))
                  .build());
      assertThat(ok.json().get("scope").asText()).isEqualTo("global");
    }
  }

  @Test
  void theDefaultIsTheGlobalScopeOnlyWithoutKeys() {
    assertThat(new Symbolication(null, ApiSettings.defaults()).access())
        .isSameAs(ScopeAccess.DEFAULT);
    assertThat(ScopeAccess.DEFAULT.anonymousScopes()).containsExactly("global");
  }

  private static ApiClient.Response echo(String scope, String key, String origin) throws Exception {
    return post(echoServer.uri(), ECHO.path(), scope, key, origin, "{}");
  }

  private static ApiClient.Response post(
      String path, String scope, String key, String auth, String body) throws Exception {
    return post(server.uri(), path, scope, key, auth, body);
  }

  private static ApiClient.Response post(
      URI base, String path, String scope, String key, String auth, String body) throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(base.resolve(path)).POST(HttpRequest.BodyPublishers.ofString(body));
    if (scope != null) {
      b.header(ShapeHandler.SCOPE_HEADER, scope);
    }
    if (key != null) {
      b.header("Authorization", "APIKey " + key);
    }
    if (auth != null && auth.startsWith("https://")) {
      b.header("Origin", auth);
    } else if (auth != null) {
      b.header("Authorization", auth);
    }
    return client.send(b.build());
  }
}
