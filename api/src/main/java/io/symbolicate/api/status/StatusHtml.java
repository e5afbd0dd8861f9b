package io.symbolicate.api.status;

import static io.symbolicate.api.status.Html.escape;

import io.symbolicate.api.server.Route;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The status page as the server renders it: every number is in the HTML, so the page reads
 * without JavaScript (a {@code noscript} refresh then reloads it); {@code status.js} fetches
 * {@code /status.json} and redraws the same elements. Every string from the pipeline (module
 * names, signatures, event ids) is escaped.
 */
final class StatusHtml {
  /** Seconds between reloads of the page when scripts are off. */
  static final int NOSCRIPT_REFRESH_SECONDS = 10;

  /** Chart geometry: one bar per hour. */
  static final int BAR_WIDTH = 5;

  static final int CHART_HEIGHT = 24;

  private final StringBuilder b = new StringBuilder(8192);

  private StatusHtml() {}

  static String render(StatusSnapshot s) {
    return new StatusHtml().page(s);
  }

  private String page(StatusSnapshot s) {
    b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        .append("<title>symbolicator status</title><link rel=\"icon\" href=\"data:,\">")
        .append("<link rel=\"stylesheet\" href=\"" + Route.STATUS_CSS.path() + "\">")
        .append("<noscript><meta http-equiv=\"refresh\" content=\"")
        .append(NOSCRIPT_REFRESH_SECONDS)
        .append("\"></noscript><script src=\"" + Route.STATUS_JS.path() + "\" defer></script>")
        .append("</head>\n<body>")
        .append("<header><h1>symbolicator status</h1><p>as of <time data-k=\"generated_at\">")
        .append(escape(s.generatedAt()))
        .append("</time> <span id=\"live\">(reloads every ")
        .append(NOSCRIPT_REFRESH_SECONDS)
        .append(" s)</span></p></header>\n<main>");
    section("events", "Events", () -> events(s.events()), s.events() == null);
    section(
        "dead_letters",
        "Dead letters",
        () -> deadLetters(s.deadLetters()),
        s.deadLetters() == null);
    section("parked", "Parked events", () -> parked(s.parked()), s.parked() == null);
    section("loads", "Symbol loads", () -> loads(s.loads()), s.loads() == null);
    section("caches", "Cache hit rates", () -> caches(s.caches()), s.caches() == null);
    section(
        "missing_modules",
        "Most requested missing modules",
        () -> missing(s.missingModules()),
        s.missingModules() == null);
    section(
        "top_crashers",
        "Top crashers, last 24 hours",
        () -> crashers(s.topCrashers()),
        s.topCrashers() == null);
    b.append("</main></body></html>\n");
    return b.toString();
  }

  private void section(String id, String title, Runnable body, boolean absent) {
    b.append("\n<section id=\"")
        .append(id)
        .append("\"><h2>")
        .append(title)
        .append("</h2><div data-section=\"")
        .append(id)
        .append("\">");
    if (absent) {
      note("not running on this instance");
    } else {
      body.run();
    }
    b.append("</div></section>");
  }

  private void note(String text) {
    b.append("<p class=\"note\">").append(escape(text)).append("</p>");
  }

  private void figure(String key, String label, String value) {
    b.append("<div class=\"figure\"><span class=\"value\" data-k=\"")
        .append(escape(key))
        .append("\">")
        .append(escape(value))
        .append("</span> <span class=\"label\">")
        .append(escape(label))
        .append("</span></div>");
  }

  private void events(StatusSnapshot.Events e) {
    b.append("<div class=\"figures\">");
    figure("events.in_per_second", "in / s", StatusFormat.rate(e.inPerSecond()));
    figure("events.out_per_second", "out / s", StatusFormat.rate(e.outPerSecond()));
    figure("events.in_total", "in since start", StatusFormat.count(e.inTotal()));
    figure("events.out_total", "out since start", StatusFormat.count(e.outTotal()));
    b.append("</div>");
  }

  private void deadLetters(StatusSnapshot.DeadLetters d) {
    b.append("<div class=\"figures\">");
    figure("dead_letters.total", "since start", StatusFormat.count(d.total()));
    b.append("</div>");
    counts("dead_letters.by_reason", "reason", d.byReason());
  }

  private void parked(StatusSnapshot.Parked p) {
    b.append("<div class=\"figures\">");
    figure("parked.total", "waiting for symbols", StatusFormat.count(p.total()));
    b.append("</div>");
    counts("parked.by_platform", "platform", p.byPlatform());
  }

  private void counts(String key, String what, Map<String, Long> byName) {
    b.append("<table><thead><tr><th>")
        .append(what)
        .append("</th><th class=\"n\">count</th></tr></thead><tbody>");
    for (Map.Entry<String, Long> e : byName.entrySet()) {
      b.append("<tr><td>")
          .append(escape(e.getKey()))
          .append("</td><td class=\"n\" data-k=\"")
          .append(escape(key + "." + e.getKey()))
          .append("\">")
          .append(StatusFormat.count(e.getValue()))
          .append("</td></tr>");
    }
    b.append("</tbody></table>");
  }

  private void loads(StatusSnapshot.Loads l) {
    b.append("<div class=\"figures\">");
    figure("loads.in_flight", "in flight", StatusFormat.count(l.inFlight()));
    figure("loads.finished", "finished", StatusFormat.count(l.finished()));
    figure("loads.mean_millis", "mean time", StatusFormat.millis(l.meanMillis()));
    b.append("</div>");
    if (l.running().isEmpty()) {
      note("no load running");
      return;
    }
    b.append(
        "<table><thead><tr><th>module</th><th class=\"n\">running for</th></tr></thead><tbody>");
    for (StatusSnapshot.RunningLoad r : l.running()) {
      b.append("<tr><td class=\"name\">")
          .append(escape(r.module()))
          .append("</td><td class=\"n\">")
          .append(StatusFormat.millis(r.runningMillis()))
          .append("</td></tr>");
    }
    b.append("</tbody></table>");
  }

  private void caches(List<StatusSnapshot.Cache> caches) {
    b.append("<table><thead><tr><th>layer</th><th class=\"n\">hits</th><th class=\"n\">misses</th>")
        .append("<th class=\"n\">hit rate</th></tr></thead><tbody>");
    for (StatusSnapshot.Cache c : caches) {
      String k = "caches." + c.layer();
      b.append("<tr><td>")
          .append(escape(c.layer()))
          .append("</td><td class=\"n\" data-k=\"")
          .append(escape(k))
          .append(".hits\">")
          .append(StatusFormat.count(c.hits()))
          .append("</td><td class=\"n\" data-k=\"")
          .append(escape(k))
          .append(".misses\">")
          .append(StatusFormat.count(c.misses()))
          .append("</td><td class=\"n\" data-k=\"")
          .append(escape(k))
          .append(".hit_rate\">")
          .append(StatusFormat.percent(c.hitRate()))
          .append("</td></tr>");
    }
    b.append("</tbody></table>");
  }

  private void missing(StatusSnapshot.MissingModules m) {
    if (m.note() != null) {
      note(m.note());
    }
    if (m.modules().isEmpty()) {
      if (m.note() == null) {
        note("no missing module seen");
      }
      return;
    }
    b.append(
            "<table><thead><tr><th>module</th><th>platform</th><th>scope</th><th class=\"n\">count</th>")
        .append("<th>last seen</th></tr></thead><tbody>");
    for (StatusSnapshot.MissingModule x : m.modules()) {
      b.append("<tr><td class=\"name\">")
          .append(escape(x.module()))
          .append("</td><td>")
          .append(escape(x.platform()))
          .append("</td><td>")
          .append(escape(x.scope()))
          .append("</td><td class=\"n\">")
          .append(StatusFormat.count(x.count()))
          .append("</td><td class=\"time\">")
          .append(escape(x.lastSeen()))
          .append("</td></tr>");
    }
    b.append("</tbody></table>");
  }

  private void crashers(StatusSnapshot.TopCrashers t) {
    if (!t.enabled()) {
      note(t.note());
      return;
    }
    b.append("<div class=\"figures\">");
    figure("top_crashers.total", "crashes", StatusFormat.count(t.total()));
    b.append("</div>");
    if (t.note() != null) {
      note(t.note());
    }
    if (t.crashers().isEmpty()) {
      note("no crash in the last 24 hours");
      return;
    }
    b.append(
            "<table><thead><tr><th>signature</th><th class=\"n\">count</th><th class=\"n\">share</th>")
        .append(
            "<th>per hour</th><th>first seen</th><th>last seen</th><th>example</th></tr></thead><tbody>");
    for (StatusSnapshot.Crasher c : t.crashers()) {
      b.append("<tr><td class=\"name\">")
          .append(escape(c.signature()))
          .append("</td><td class=\"n\">")
          .append(StatusFormat.count(c.count()))
          .append("</td><td class=\"n\">")
          .append(StatusFormat.percent(c.share()))
          .append("</td><td>");
      chart(c.hours());
      b.append("</td><td class=\"time\">")
          .append(escape(c.firstSeen()))
          .append("</td><td class=\"time\">")
          .append(escape(c.lastSeen()))
          .append("</td><td class=\"name\">")
          .append(escape(c.exampleEventId()))
          .append("</td></tr>");
    }
    b.append("</tbody></table>");
  }

  /** Bars scaled to the busiest hour; the counts are in the label for readers and tests. */
  private void chart(List<Long> hours) {
    long max = 1;
    StringJoiner counts = new StringJoiner(",");
    for (long h : hours) {
      max = Math.max(max, h);
      counts.add(Long.toString(h));
    }
    int width = hours.size() * BAR_WIDTH;
    b.append("<svg class=\"chart\" width=\"")
        .append(width)
        .append("\" height=\"")
        .append(CHART_HEIGHT)
        .append("\" viewBox=\"0 0 ")
        .append(width)
        .append(' ')
        .append(CHART_HEIGHT)
        .append("\" role=\"img\" data-hours=\"")
        .append(counts)
        .append("\" aria-label=\"per hour, oldest first: ")
        .append(counts)
        .append("\">");
    for (int i = 0; i < hours.size(); i++) {
      long h = hours.get(i);
      long height = h == 0 ? 0 : Math.max(1, Math.round((double) h * CHART_HEIGHT / max));
      b.append("<rect x=\"")
          .append(i * BAR_WIDTH)
          .append("\" y=\"")
          .append(CHART_HEIGHT - height)
          .append("\" width=\"")
          .append(BAR_WIDTH - 1)
          .append("\" height=\"")
          .append(height)
          .append("\"></rect>");
    }
    b.append("</svg>");
  }
}
