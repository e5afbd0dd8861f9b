package io.symbolicate.api.analytics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.api.ApiException;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The top-crasher routes' parameters, hostile ones included: each refused with a 400 and a reason. */
class QueryParamsTest {
  private static final Instant NOW = Instant.parse("2026-11-27T12:34:56Z");
  private static final Set<String> KNOWN = Set.of("release", "since");

  @Test
  void timeRangesAreWholeHoursFromInstantsOrDurations() {
    TimeRange r = TimeRange.parse("24h", null, NOW);
    assertThat(Instant.ofEpochMilli(r.sinceHour()))
        .isEqualTo(Instant.parse("2026-11-26T12:00:00Z"));
    assertThat(Instant.ofEpochMilli(r.untilHour()))
        .isEqualTo(Instant.parse("2026-11-27T13:00:00Z"));
    assertThat(TimeRange.parse(null, null, NOW)).isEqualTo(r);
    TimeRange exact = TimeRange.parse("2026-11-27T10:00:00Z", "2026-11-27T12:00:00Z", NOW);
    assertThat(exact.untilHour() - exact.sinceHour()).isEqualTo(2 * 3_600_000L);
    assertThat(TimeRange.parse("PT90M", "30m", NOW).sinceHour())
        .isEqualTo(Instant.parse("2026-11-27T11:00:00Z").toEpochMilli());
    assertThat(TimeRange.parse("7d", null, NOW).sinceHour())
        .isEqualTo(Instant.parse("2026-11-20T12:00:00Z").toEpochMilli());
  }

  @Test
  void badTimesAreRefusedWithAReason() {
    for (String[] bad :
        new String[][] {
          {"yesterday", null},
          {"-5h", null},
          {"99999999999d", null},
          {"P-1D", null},
          {"PTx", null},
          {"2026-11-27T12:00:00Z", "2026-11-27T11:00:00Z"},
          {"1900-01-01T00:00:00Z", null},
          {"\u0000", null},
          {"", null}
        }) {
      assertThatThrownBy(() -> TimeRange.parse(bad[0], bad[1], NOW))
          .as(String.join(",", String.valueOf(bad[0])))
          .isInstanceOf(ApiException.class)
          .satisfies(
              e -> {
                assertThat(((ApiException) e).status()).isEqualTo(400);
                assertThat(e.getMessage()).isNotBlank();
              });
    }
  }

  @Test
  void queryStringsAreDecodedStrictly() {
    assertThat(QueryString.parse("release=1.0%2Bbeta&since=24h", KNOWN))
        .isEqualTo(Map.of("release", "1.0+beta", "since", "24h"));
    assertThat(QueryString.parse("release=a+b", KNOWN)).isEqualTo(Map.of("release", "a b"));
    assertThat(QueryString.decode("a+b%C3%A9", false)).isEqualTo("a+bé");
    for (String bad :
        new String[] {
          "release=%zz",
          "release=%C3",
          "release=%",
          "release=%ff%fe",
          "colour=red",
          "release=1&release=2",
          "since=" + "x".repeat(QueryString.MAX_LENGTH)
        }) {
      assertThatThrownBy(() -> QueryString.parse(bad, KNOWN))
          .as(bad)
          .isInstanceOf(ApiException.class)
          .extracting(e -> ((ApiException) e).status())
          .isEqualTo(400);
    }
  }

  @Test
  void namesAndLimitsAreBounded() {
    assertThatThrownBy(() -> Answers.name("release", "")).isInstanceOf(ApiException.class);
    assertThatThrownBy(() -> Answers.name("release", "a\nb")).isInstanceOf(ApiException.class);
    assertThatThrownBy(() -> Answers.name("release", "x".repeat(Answers.MAX_NAME_CHARS + 1)))
        .isInstanceOf(ApiException.class);
    assertThatThrownBy(() -> Answers.platform("cobol")).isInstanceOf(ApiException.class);
    assertThat(Answers.platform("native")).isEqualTo("native");
    assertThat(TopCrashersHandler.limit(null)).isEqualTo(TopCrashersHandler.DEFAULT_LIMIT);
    for (String bad : new String[] {"0", "-1", "1001", "1e3", "99999999999"}) {
      assertThatThrownBy(() -> TopCrashersHandler.limit(bad))
          .as(bad)
          .isInstanceOf(ApiException.class);
    }
  }
}
