package io.symbolicate.api.server;

import io.symbolicate.api.auth.Action;
import java.util.List;

/**
 * Every route of the HTTP API, one row each: its path, the methods it answers, the action an API
 * key needs for it (docs/api/keys.md; null: it takes no key) and the page that documents it
 * (under docs/). A {@link RouteTable} binds the routes a process serves to their handlers (the
 * app fills it with what is configured on); the server mounts that table, the status page links
 * its own routes from here, and {@code RouteDocsTest} checks docs/api against these rows.
 *
 * <p>A path with a {@code {parameter}} is a prefix route: it takes every longer path under the
 * part before the parameter. Other paths match exactly (a trailing slash allowed). The methods
 * are what the handler answers; it refuses the others itself (405 with its own reason).
 */
public enum Route {
  // Mozilla's symbolication API (nativecode)
  SYMBOLICATE_V5("/symbolicate/v5", Methods.CORS_POST, Action.SYMBOLICATE, "api/symbolicate-v5.md"),
  SYMBOLICATE_V4("/symbolicate/v4", Methods.CORS_POST, Action.SYMBOLICATE, "api/symbolicate-v4.md"),
  /** Mozilla's legacy URL for v4. */
  ROOT("/", Methods.CORS_POST, Action.SYMBOLICATE, "api/root.md"),
  // Symbolicator's endpoints (native and .NET stack traces, js, jvm, apple, minidump)
  SYMBOLICATE("/symbolicate", Methods.CORS_POST, Action.SYMBOLICATE, "api/symbolicate.md"),
  SYMBOLICATE_JS("/symbolicate-js", Methods.CORS_POST, Action.SYMBOLICATE, "api/symbolicate-js.md"),
  SYMBOLICATE_JVM(
      "/symbolicate-jvm", Methods.CORS_POST, Action.SYMBOLICATE, "api/symbolicate-jvm.md"),
  APPLE_CRASH_REPORT(
      "/applecrashreport", Methods.POST, Action.SYMBOLICATE, "api/applecrashreport.md"),
  MINIDUMP("/minidump", Methods.POST, Action.SYMBOLICATE, "api/minidump.md"),
  // symbol uploads (upload), with upload.enabled
  SYMBOLS_RANGES("/api/symbols-ranges", Methods.POST, Action.UPLOAD, "api/symbols-upload.md"),
  SYMBOLS_RETURNPADS(
      "/api/symbols-returnpads", Methods.POST, Action.UPLOAD, "api/symbols-upload.md"),
  SYMBOLS_BREAKPAD("/api/symbols-breakpad", Methods.POST, Action.UPLOAD, "api/symbols-breakpad.md"),
  SYMBOLS_SOURCEMAP(
      "/api/symbols-sourcemap", Methods.POST, Action.UPLOAD, "api/symbols-sourcemap.md"),
  SYMBOLS_MINIFIED("/api/symbols-minified", Methods.POST, Action.UPLOAD, "api/symbols-minified.md"),
  SYMBOLS_PROGUARD("/api/symbols-proguard", Methods.POST, Action.UPLOAD, "api/symbols-proguard.md"),
  SYMBOLS_DEBUGFILE(
      "/api/symbols-debugfile", Methods.POST, Action.UPLOAD, "api/symbols-debugfile.md"),
  /** A native debug file sent to its key: {@code <debug_file>/<debug_id>/<debug_file>}. */
  SYMBOLS_PATH("/api/symbols/{path}", Methods.PUT_POST, Action.UPLOAD, "api/symbols-path.md"),
  // the crash collector (collect), with collector.enabled
  SUBMIT("/submit", Methods.POST, Action.SUBMIT, "api/submit.md"),
  // top crashers (analytics): aggregate, or run with analytics.enabled
  TOP_CRASHERS("/api/top-crashers", Methods.GET, null, "api/top-crashers.md"),
  SIGNATURE("/api/signatures/{signature}", Methods.GET, null, "api/signatures.md"),
  /** One instance's part of a top-crashers answer, asked by the others. */
  TOP_CRASHERS_PART("/api/internal/top-crashers-part", Methods.GET, null, "api/top-crashers.md"),
  /** One instance's part of a signature's history, asked by the others. */
  SIGNATURE_PART("/api/internal/signature-part", Methods.GET, null, "api/signatures.md"),
  // the status page (status)
  STATUS("/status", Methods.GET_HEAD, null, "status-page.md"),
  STATUS_JSON("/status.json", Methods.GET_HEAD, null, "status-page.md"),
  STATUS_JS("/status.js", Methods.GET_HEAD, null, "status-page.md"),
  STATUS_CSS("/status.css", Methods.GET_HEAD, null, "status-page.md"),
  // operations (app.metrics)
  HEALTH("/health", Methods.GET_HEAD, null, "api/health.md"),
  METRICS("/metrics", Methods.GET_HEAD, null, "api/metrics.md");

  /** The page of the action column: the keys, and what each action allows (under docs/). */
  public static final String KEYS_PAGE = "api/keys.md";

  private final String path;
  private final List<String> methods;
  private final Action action;
  private final String page;

  Route(String path, List<String> methods, Action action, String page) {
    this.path = path;
    this.methods = methods;
    this.action = action;
    this.page = page;
  }

  /** The path as documented; a prefix route's ends with its {@code {parameter}}. */
  public String path() {
    return path;
  }

  /** Whether the route takes every path under {@link #prefix()}. */
  public boolean isPrefix() {
    return path.endsWith("}");
  }

  /** A prefix route's prefix (up to the parameter, ending with {@code /}); else the path. */
  public String prefix() {
    return isPrefix() ? path.substring(0, path.lastIndexOf('{')) : path;
  }

  /** The methods the route answers; the first is the one it is documented by. */
  public List<String> methods() {
    return methods;
  }

  /** The action an API key needs for this route, or null when it takes no key. */
  public Action action() {
    return action;
  }

  /** The page that documents the route, relative to docs/. */
  public String page() {
    return page;
  }

  /** {@code METHOD path}, as the docs write it. */
  @Override
  public String toString() {
    return methods.get(0) + " " + path;
  }

  private static final class Methods {
    static final List<String> POST = List.of("POST");

    /** An upload to a key, as to a symbol server. */
    static final List<String> PUT_POST = List.of("PUT", "POST");

    /** POST, and the preflight of browsers' cross-origin calls. */
    static final List<String> CORS_POST = List.of("POST", "OPTIONS");

    static final List<String> GET = List.of("GET");
    static final List<String> GET_HEAD = List.of("GET", "HEAD");
  }
}
