package io.symbolicate.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CorsPolicyTest {
  @Test
  void anyOriginMayCallButNoneMayNameAScope() {
    CorsPolicy any = CorsPolicy.parse("*");
    assertThat(any.allowOrigin("https://evil.example")).isEqualTo("*");
    assertThat(any.allowOrigin(null)).isEqualTo("*");
    assertThat(any.allowsScope("https://evil.example")).isFalse();
    assertThat(any.variesByOrigin()).isFalse();
  }

  @Test
  void listedOriginsAreEchoedAndMayNameAScope() {
    CorsPolicy listed =
        CorsPolicy.parse(" https://Profiler.Firefox.com:443, http://localhost:4242 ");
    assertThat(listed.allowOrigin("https://profiler.firefox.com"))
        .isEqualTo("https://profiler.firefox.com");
    assertThat(listed.allowOrigin("http://localhost:4242")).isEqualTo("http://localhost:4242");
    assertThat(listed.allowsScope("http://localhost:4242")).isTrue();
    assertThat(listed.allowOrigin("http://localhost:4243")).isNull();
    assertThat(listed.allowOrigin("https://profiler.firefox.com.evil.example")).isNull();
    assertThat(listed.allowsScope("https://evil.example")).isFalse();
    assertThat(listed.allowOrigin(null)).isNull();
    assertThat(listed.variesByOrigin()).isTrue();
  }

  @Test
  void originsAreWrittenAsBrowsersSendThem() {
    CorsPolicy p =
        CorsPolicy.parse(
            "https://profiler.firefox.com/, http://[0:0:0:0:0:0:0:1]:8080, "
                + "http://[2001:DB8:0:0:1:0:0:1], http://[fe80:0:0:0:0:0:0:0]");
    assertThat(p.allowOrigin("https://profiler.firefox.com"))
        .isEqualTo("https://profiler.firefox.com");
    assertThat(p.allowOrigin("http://[::1]:8080")).isEqualTo("http://[::1]:8080");
    // RFC 5952: the first of equally long zero runs is shortened
    assertThat(p.allowOrigin("http://[2001:db8::1:0:0:1]")).isNotNull();
    assertThat(p.allowOrigin("http://[fe80::]")).isNotNull();
    assertThat(p.toString())
        .contains("http://[::1]:8080", "http://[2001:db8::1:0:0:1]", "http://[fe80::]");
  }

  @Test
  void noneAnswersNoOrigin() {
    for (String spec : new String[] {"none", "", " , "}) {
      CorsPolicy none = CorsPolicy.parse(spec);
      assertThat(none.allowOrigin("https://profiler.firefox.com")).as(spec).isNull();
      assertThat(none.allowsScope("https://profiler.firefox.com")).as(spec).isFalse();
    }
  }

  @Test
  void whatIsNoOriginIsRefusedWithTheReason() {
    for (String bad :
        new String[] {
          "profiler.firefox.com",
          "https://x.example/path",
          "ftp://x.example",
          "https://x.example, *",
          "https://user@x.example",
          "https://x.example?q",
          "https://under_score.example",
          "http://[1:2:3]"
        }) {
      assertThatThrownBy(() -> CorsPolicy.parse(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("http.cors.origins");
    }
  }
}
