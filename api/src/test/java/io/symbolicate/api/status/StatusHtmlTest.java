package io.symbolicate.api.status;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The server-rendered page: the numbers are there, and strings from the pipeline stay text. */
class StatusHtmlTest {
  static final String MODULE = "<script>alert(\"m\")</script>'x'.so";
  static final String SIGNATURE = "\"><img src=x onerror=alert(1)> & `tick` </td>";

  static StatusSnapshot snapshot(StatusSnapshot.TopCrashers crashers) {
    return new StatusSnapshot(
        "2026-11-27T10:00:00Z",
        new StatusSnapshot.Events(120, 117, 3.25, 2.5),
        new StatusSnapshot.DeadLetters(3, Map.of("undecodable", 2L, "invalid_json", 1L)),
        new StatusSnapshot.Parked(5, Map.of("native", 5L)),
        new StatusSnapshot.Loads(
            1, 4, 812.4, List.of(new StatusSnapshot.RunningLoad(MODULE, 12_345))),
        new StatusSnapshot.MissingModules(
            true,
            null,
            List.of(
                new StatusSnapshot.MissingModule(
                    MODULE, "native", "<scope>", 9, "2026-11-27T09:00:00Z"))),
        List.of(
            new StatusSnapshot.Cache("page_cache", 9, 1, 0.9),
            new StatusSnapshot.Cache("rocksdb", 0, 0, null)),
        crashers);
  }

  static StatusSnapshot.TopCrashers crashers() {
    return new StatusSnapshot.TopCrashers(
        true,
        null,
        "s",
        "u",
        40,
        List.of(
            new StatusSnapshot.Crasher(
                SIGNATURE, 10, 0.25, "f", "l", "<e>", List.of(0L, 5L, 10L))));
  }

  @Test
  void rendersEveryFigure() {
    String html = StatusHtml.render(snapshot(crashers()));
    assertThat(html)
        .contains(
            "data-k=\"events.in_total\">120<",
            "data-k=\"events.out_total\">117<",
            "data-k=\"events.in_per_second\">3.3<",
            "data-k=\"events.out_per_second\">2.5<",
            "data-k=\"dead_letters.total\">3<",
            "data-k=\"dead_letters.by_reason.undecodable\">2<",
            "data-k=\"parked.total\">5<",
            "data-k=\"loads.in_flight\">1<",
            "data-k=\"loads.mean_millis\">812 ms<",
            "12.3 s",
            "data-k=\"caches.page_cache.hit_rate\">90.0 %<",
            "data-k=\"caches.rocksdb.hit_rate\">\u2013<",
            "data-k=\"top_crashers.total\">40<",
            "25.0 %");
  }

  @Test
  void escapesEveryStringFromThePipeline() {
    String html = StatusHtml.render(snapshot(crashers()));
    assertThat(html)
        .doesNotContain(MODULE)
        .doesNotContain(SIGNATURE)
        .doesNotContain("<e>")
        .doesNotContain("<scope>")
        .doesNotContain("<img");
    assertThat(html)
        .contains("&lt;script&gt;alert(&quot;m&quot;)&lt;/script&gt;&#39;x&#39;.so")
        .contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt; &amp; &#96;tick&#96; &lt;/td&gt;");
    assertThat(html.split("<script", -1)).as("only our own script tag").hasSize(2);
    assertThat(html).doesNotContain(" style=").doesNotContain("onload").doesNotContain("<script>");
  }

  @Test
  void drawsTheHoursScaledToTheBusiestOne() {
    String html = StatusHtml.render(snapshot(crashers()));
    assertThat(html)
        .contains("data-hours=\"0,5,10\"")
        .contains("<rect x=\"0\" y=\"24\" width=\"4\" height=\"0\">")
        .contains("<rect x=\"5\" y=\"12\" width=\"4\" height=\"12\">")
        .contains("<rect x=\"10\" y=\"0\" width=\"4\" height=\"24\">");
  }

  @Test
  void saysWhatIsNotRunning() {
    StatusSnapshot none =
        new StatusSnapshot(
            "t",
            null,
            null,
            null,
            null,
            null,
            null,
            new StatusSnapshot.TopCrashers(
                false, "top crashers not enabled", null, null, 0, List.of()));
    String html = StatusHtml.render(none);
    assertThat(html)
        .contains("top crashers not enabled")
        .contains("not running on this instance")
        .doesNotContain("data-k=\"events.in_total\"");
  }

  @Test
  void escapeReplacesControlCharacters() {
    assertThat(Html.escape("a\u0000b\u001bc\td\ne")).isEqualTo("a\uFFFDb\uFFFDc\td\ne");
    assertThat(Html.escape(null)).isEmpty();
  }
}
