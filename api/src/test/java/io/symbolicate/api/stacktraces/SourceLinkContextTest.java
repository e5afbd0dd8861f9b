package io.symbolicate.api.stacktraces;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.symbolicate.api.ApiSymbolicator;
import io.symbolicate.api.DetachedSymbolication;
import io.symbolicate.api.FakeLoaderSymbols;
import io.symbolicate.api.Json;
import io.symbolicate.connectors.loader.dotnet.DotnetTableConverter;
import io.symbolicate.connectors.source.SourceLinkFetcher;
import io.symbolicate.connectors.source.SourceLinkPolicy;
import io.symbolicate.symbols.dotnet.PortablePdb;
import io.symbolicate.symbols.testing.SharedFixtures;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /symbolicate}'s .NET frames whose document only a Source Link URL names, against
 * Symbolicator's {@code dotnet_only_source_links} request and snapshot (its {@code
 * source-links.pdb} fixture): with a rule allowing the URL's prefix (fetched from a mirror on a
 * loopback server that serves the file with the snapshot's lines), the frame gets the snapshot's
 * context; without a rule, with another prefix, or with {@code apply_source_context: false}, the
 * server sees no request and the frame still reports {@code source_link}; a 404 gives no context
 * and a {@code sourcelink} candidate that says so.
 */
class SourceLinkContextTest {
  static final Path DIFS = SharedFixtures.fixtures("difs").resolve("getsentry-symbolicator");
  static final Path ONLY_LINKS =
      DIFS.resolve(
          "symbols/source-links.pdb/0C380A12822140698565BEE6B3AC196Effffffff/source-links.pdb");
  static final Path WITH_LINKS =
      DIFS.resolve(
          "symbols/source-links.pdb/37E9E8A61A8E404EB93C6902E277FF55ffffffff/source-links.pdb");

  HttpServer server;
  String base;
  final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();
  final Map<String, byte[]> files = new ConcurrentHashMap<>();

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::serve);
    server.start();
    base = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private void serve(HttpExchange x) throws IOException {
    String path = x.getRequestURI().getPath();
    hits.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
    try (x) {
      byte[] body = files.get(path);
      if (body == null) {
        x.sendResponseHeaders(404, -1);
        return;
      }
      x.sendResponseHeaders(200, body.length);
      try (OutputStream o = x.getResponseBody()) {
        o.write(body);
      }
    }
  }

  static JsonNode snapshotFrame(String name) throws IOException {
    String text = Files.readString(DIFS.resolve("snapshots/" + name));
    // insta's header, then the YAML document
    String yaml = text.substring(text.indexOf("\n---\n", 3) + 5);
    return new YAMLMapper().readTree(yaml).get("stacktraces").get(0).get("frames").get(0);
  }

  SourceLinkFetcher fetcher(String allow) {
    return new SourceLinkFetcher(
        new SourceLinkFetcher.Settings(
            SourceLinkPolicy.parse(allow, true),
            1 << 20,
            Duration.ofSeconds(5),
            16,
            60_000,
            60_000,
            10_000,
            1 << 20));
  }

  /** The answer to Symbolicator's request for {@code pdb}'s frame, with {@code fetcher}. */
  JsonNode symbolicate(Path pdb, String frame, SourceLinkFetcher fetcher, boolean context)
      throws Exception {
    byte[] data = Files.readAllBytes(pdb);
    String id = PortablePdb.parse(data).debugId();
    FakeLoaderSymbols symbols =
        new FakeLoaderSymbols()
            .with(
                "source-links.pdb/" + SymbolicateHandler.breakpadId(id),
                new DotnetTableConverter().convert(new ByteArrayInputStream(data), 1 << 30));
    SymbolicateHandler handler =
        new SymbolicateHandler(DetachedSymbolication.defaults().withSourceLinks(fetcher));
    SymbolicateRequest r =
        handler.parse(
            Json.MAPPER.readTree(
                "{\"stacktraces\": [{\"frames\": ["
                    + frame
                    + "]}], \"modules\": [{\"type\": \"pe_dotnet\", \"debug_file\": \"source-links.pdb\", \"debug_id\": \""
                    + id
                    + "\"}], \"options\": {\"apply_source_context\": "
                    + context
                    + "}}"));
    ApiSymbolicator s = symbols.symbolicator();
    ApiSymbolicator.Result res =
        s.symbolicate(
            handler.events(r, "global"),
            handler.ownModules(r, "global"),
            System.currentTimeMillis() + 5000,
            100,
            (ev, l) -> handler.whenReady(r, ev, l));
    return handler.render(r, res.events(), res.stats(), res.lookup());
  }

  static final String ONLY_LINKS_FRAME =
      "{\"instruction_addr\": \"0x2f\", \"function_id\": \"0x5\", \"addr_mode\": \"rel:0\"}";
  static final String PREFIX = "https://raw.githubusercontent.com/getsentry/sentry-dotnet/";

  /** The served Program.cs: the snapshot's lines 8 to 13 (its last), placeholders before. */
  void serveProgramCs(JsonNode want) {
    List<String> lines = new ArrayList<>();
    for (int i = 1; i <= 7; i++) {
      lines.add("// line " + i);
    }
    want.get("pre_context").forEach(l -> lines.add(l.asText()));
    lines.add(want.get("context_line").asText());
    String path = want.get("source_link").asText().substring(PREFIX.length());
    files.put(
        "/mirror/" + path, (String.join("\r\n", lines) + "\r\n").getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void anAllowedSourceLinkGivesTheServedFilesContext() throws Exception {
    JsonNode want = snapshotFrame("integration__symbolication__dotnet_only_source_links.snap");
    serveProgramCs(want);
    JsonNode got =
        symbolicate(ONLY_LINKS, ONLY_LINKS_FRAME, fetcher(PREFIX + "=" + base + "/mirror/"), true);
    JsonNode f = got.get("stacktraces").get(0).get("frames").get(0);
    for (String field :
        List.of(
            "status",
            "lang",
            "filename",
            "abs_path",
            "lineno",
            "source_link",
            "pre_context",
            "context_line")) {
      assertThat(f.get(field)).as(field).isEqualTo(want.get(field));
    }
    assertThat(f.has("post_context")).isFalse();
    JsonNode module = got.get("modules").get(0);
    assertThat(module.get("features").get("has_sources").asBoolean()).isTrue();
    JsonNode c = module.get("candidates").get(0);
    assertThat(c.get("source").asText()).isEqualTo("sourcelink");
    assertThat(c.get("location")).isEqualTo(want.get("source_link"));
    assertThat(c.get("download").get("status").asText()).isEqualTo("ok");
    assertThat(hits.values()).extracting(AtomicInteger::get).containsExactly(1);
  }

  @Test
  void notAllowedIsReportedAndNeverFetched() throws Exception {
    JsonNode want = snapshotFrame("integration__symbolication__dotnet_only_source_links.snap");
    serveProgramCs(want);
    // no fetcher (the default), another prefix, context off for the request
    for (JsonNode got :
        List.of(
            symbolicate(ONLY_LINKS, ONLY_LINKS_FRAME, null, true),
            symbolicate(
                ONLY_LINKS,
                ONLY_LINKS_FRAME,
                fetcher("https://raw.githubusercontent.com/other/=" + base + "/mirror/"),
                true),
            symbolicate(
                ONLY_LINKS, ONLY_LINKS_FRAME, fetcher(PREFIX + "=" + base + "/mirror/"), false))) {
      JsonNode f = got.get("stacktraces").get(0).get("frames").get(0);
      assertThat(f.get("source_link")).isEqualTo(want.get("source_link"));
      assertThat(f.get("lineno")).isEqualTo(want.get("lineno"));
      assertThat(f.has("context_line")).isFalse();
    }
    assertThat(hits).isEmpty();
    // the refusal is the module's sourcelink candidate
    JsonNode other =
        symbolicate(
                ONLY_LINKS,
                ONLY_LINKS_FRAME,
                fetcher("https://raw.githubusercontent.com/other/=" + base + "/mirror/"),
                true)
            .get("modules")
            .get(0)
            .get("candidates")
            .get(0)
            .get("download");
    assertThat(other.get("status").asText()).isEqualTo("noperm");
    assertThat(other.get("details").asText()).contains("no allowed prefix");
  }

  @Test
  void aMissingFileGivesNoContextAndSaysWhy() throws Exception {
    JsonNode got =
        symbolicate(ONLY_LINKS, ONLY_LINKS_FRAME, fetcher(PREFIX + "=" + base + "/mirror/"), true);
    JsonNode f = got.get("stacktraces").get(0).get("frames").get(0);
    assertThat(f.get("status").asText()).isEqualTo("symbolicated");
    assertThat(f.has("source_link")).isTrue();
    assertThat(f.has("context_line")).isFalse();
    JsonNode d = got.get("modules").get(0).get("candidates").get(0).get("download");
    assertThat(d.get("status").asText()).isEqualTo("notfound");
    assertThat(d.get("details").asText()).isEqualTo("HTTP 404");
    assertThat(hits.values()).extracting(AtomicInteger::get).containsExactly(1);
  }

  /**
   * Symbolicator's {@code dotnet_source_links}: the PDB does not embed ThrowHelper.cs either (its
   * snapshot's context is GitHub's file); served with the snapshot's lines 19 to 29, the frame's
   * context is the snapshot's, post_context too.
   */
  @Test
  void aSecondPdbsFileWithLinesAfter() throws Exception {
    JsonNode want = snapshotFrame("integration__symbolication__dotnet_source_links.snap");
    String prefix = "https://raw.githubusercontent.com/dotnet/runtime/";
    List<String> lines = new ArrayList<>();
    int first = want.get("lineno").asInt() - want.get("pre_context").size();
    for (int i = 1; i < first; i++) {
      lines.add("// line " + i);
    }
    want.get("pre_context").forEach(l -> lines.add(l.asText()));
    lines.add(want.get("context_line").asText());
    want.get("post_context").forEach(l -> lines.add(l.asText()));
    lines.add("// and more");
    files.put(
        "/mirror/" + want.get("source_link").asText().substring(prefix.length()),
        (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    JsonNode got =
        symbolicate(
            WITH_LINKS,
            "{\"instruction_addr\": 1, \"function_id\": 7, \"addr_mode\": \"rel:0\"}",
            fetcher(prefix + "=" + base + "/mirror/"),
            true);
    JsonNode f = got.get("stacktraces").get(0).get("frames").get(0);
    for (String field :
        List.of("lineno", "source_link", "pre_context", "context_line", "post_context")) {
      assertThat(f.get(field)).as(field).isEqualTo(want.get(field));
    }
    assertThat(hits.values()).extracting(AtomicInteger::get).containsExactly(1);
  }
}
