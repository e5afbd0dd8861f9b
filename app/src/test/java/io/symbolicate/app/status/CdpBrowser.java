package io.symbolicate.app.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A headless Chromium driven over the DevTools protocol (a WebSocket and JSON, nothing else): one
 * page, its console errors, uncaught exceptions and browser log errors (failed loads, policy
 * violations) collected as they happen. Debian's {@code chromium} at {@link #BINARY} (or
 * {@code -Dchromium.path}); when it is absent the test fails saying how to install it.
 */
final class CdpBrowser implements AutoCloseable {
  static final String BINARY = System.getProperty("chromium.path", "/usr/bin/chromium");
  // a cold chromium on a loaded 2-core CI machine once took longer than 20 s to open its port
  static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  static final Duration CALL_TIMEOUT = Duration.ofSeconds(15);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Process process;
  private final WebSocket socket;
  private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();
  private final List<String> errors = new CopyOnWriteArrayList<>();
  private final String session;

  private CdpBrowser(Process process, WebSocket socket, Listener listener) throws Exception {
    this.process = process;
    this.socket = socket;
    listener.owner = this;
    String target =
        call(null, "Target.createTarget", JSON.createObjectNode().put("url", "about:blank"))
            .get("targetId")
            .asText();
    session =
        call(
                null,
                "Target.attachToTarget",
                JSON.createObjectNode().put("targetId", target).put("flatten", true))
            .get("sessionId")
            .asText();
    for (String domain : List.of("Runtime", "Log", "Page")) {
      call(domain + ".enable", JSON.createObjectNode());
    }
  }

  static CdpBrowser launch(Path userDataDir) throws Exception {
    if (!Files.isExecutable(Path.of(BINARY))) {
      throw new AssertionError(
          "the browser test needs Debian's chromium at "
              + BINARY
              + " (not found): "
              + "apt-get install -y chromium chromium-driver (as .ci/run does), or pass -Dchromium.path=...");
    }
    Process p =
        new ProcessBuilder(
                BINARY,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-extensions",
                "--disable-default-apps",
                "--hide-scrollbars",
                "--mute-audio",
                "--user-data-dir=" + userDataDir,
                "--remote-debugging-port=0",
                "--remote-allow-origins=*",
                "--window-size=1280,1000",
                "about:blank")
            .redirectErrorStream(true)
            .redirectOutput(userDataDir.resolveSibling("chromium.log").toFile())
            .start();
    Path portFile = userDataDir.resolve("DevToolsActivePort");
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    List<String> lines = List.of();
    while (System.nanoTime() < deadline && p.isAlive()) {
      if (Files.exists(portFile)) {
        lines = Files.readAllLines(portFile);
        if (lines.size() >= 2) {
          break;
        }
      }
      Thread.sleep(50);
    }
    if (lines.size() < 2) {
      kill(p);
      throw new AssertionError(
          "chromium did not open its DevTools port within "
              + START_TIMEOUT
              + "; see "
              + userDataDir.resolveSibling("chromium.log"));
    }
    URI ws = URI.create("ws://127.0.0.1:" + lines.get(0).trim() + lines.get(1).trim());
    Listener listener = new Listener();
    WebSocket socket =
        HttpClient.newHttpClient()
            .newWebSocketBuilder()
            .connectTimeout(START_TIMEOUT)
            .buildAsync(ws, listener)
            .get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    try {
      return new CdpBrowser(p, socket, listener);
    } catch (Exception e) {
      kill(p);
      throw e;
    }
  }

  /** A command to the page. */
  JsonNode call(String method, ObjectNode params) throws Exception {
    return call(session, method, params);
  }

  private JsonNode call(String sessionId, String method, ObjectNode params) throws Exception {
    int id = ids.incrementAndGet();
    ObjectNode msg = JSON.createObjectNode().put("id", id).put("method", method);
    msg.set("params", params);
    if (sessionId != null) {
      msg.put("sessionId", sessionId);
    }
    CompletableFuture<JsonNode> answer = new CompletableFuture<>();
    pending.put(id, answer);
    synchronized (socket) {
      socket
          .sendText(JSON.writeValueAsString(msg), true)
          .get(CALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }
    JsonNode r = answer.get(CALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    if (r.has("error")) {
      throw new IllegalStateException(method + " failed: " + r.get("error"));
    }
    return r.get("result");
  }

  /** Loads {@code url} and waits for its load event. */
  void navigate(String url) throws Exception {
    call("Page.navigate", JSON.createObjectNode().put("url", url));
    long deadline = System.nanoTime() + CALL_TIMEOUT.toNanos();
    while (!"complete".equals(eval("document.readyState").asText())) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(url + " did not finish loading");
      }
      Thread.sleep(50);
    }
  }

  /** The value of a JavaScript expression in the page (JSON values come back as they are). */
  JsonNode eval(String expression) throws Exception {
    JsonNode r =
        call(
            "Runtime.evaluate",
            JSON.createObjectNode().put("expression", expression).put("returnByValue", true));
    if (r.has("exceptionDetails")) {
      throw new IllegalStateException(expression + " threw: " + r.get("exceptionDetails"));
    }
    JsonNode v = r.get("result").get("value");
    return v == null ? JSON.nullNode() : v;
  }

  /** A PNG of the whole page at {@code width} CSS pixels. */
  byte[] screenshot(int width) throws Exception {
    int height = eval("Math.ceil(document.documentElement.scrollHeight)").asInt();
    call(
        "Emulation.setDeviceMetricsOverride",
        JSON.createObjectNode()
            .put("width", width)
            .put("height", height)
            .put("deviceScaleFactor", 1)
            .put("mobile", false));
    String data =
        call("Page.captureScreenshot", JSON.createObjectNode().put("format", "png"))
            .get("data")
            .asText();
    return Base64.getDecoder().decode(data);
  }

  /** Console errors, uncaught exceptions and error entries of the browser log, so far. */
  List<String> errors() {
    return new ArrayList<>(errors);
  }

  private void onMessage(String text) {
    JsonNode m;
    try {
      m = JSON.readTree(text);
    } catch (IOException e) {
      errors.add("unreadable DevTools message: " + e.getMessage());
      return;
    }
    if (m.has("id")) {
      CompletableFuture<JsonNode> f = pending.remove(m.get("id").asInt());
      if (f != null) {
        f.complete(m);
      }
      return;
    }
    String method = m.path("method").asText();
    JsonNode p = m.path("params");
    switch (method) {
      case "Runtime.consoleAPICalled" -> {
        String type = p.path("type").asText();
        if (type.equals("error") || type.equals("assert")) {
          errors.add("console." + type + ": " + p.path("args"));
        }
      }
      case "Runtime.exceptionThrown" -> errors.add("uncaught: " + p.path("exceptionDetails"));
      case "Log.entryAdded" -> {
        if (p.path("entry").path("level").asText().equals("error")) {
          errors.add(
              "log: "
                  + p.path("entry").path("text").asText()
                  + " "
                  + p.path("entry").path("url").asText());
        }
      }
      default -> {}
    }
  }

  private static final class Listener implements WebSocket.Listener {
    private final StringBuilder text = new StringBuilder();
    volatile CdpBrowser owner;
    private final List<String> early = new ArrayList<>();

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      text.append(data);
      if (last) {
        String message = text.toString();
        text.setLength(0);
        CdpBrowser o = owner;
        if (o == null) {
          early.add(message);
        } else {
          early.forEach(o::onMessage);
          early.clear();
          o.onMessage(message);
        }
      }
      ws.request(1);
      return null;
    }
  }

  private static void kill(Process p) {
    p.descendants().forEach(ProcessHandle::destroy);
    p.destroy();
    try {
      if (!p.waitFor(5, TimeUnit.SECONDS)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    socket.abort();
    kill(process);
  }
}
