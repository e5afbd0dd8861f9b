package io.symbolicate.app.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.connectors.source.SourceLinkFetcher;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code symbolication.source.link.*}: off by default (no fetcher: Source Link URLs are only
 * reported), a fetcher with the keys' limits and the cache rules' retry times when a prefix is
 * allowed, a start-up refusal naming an entry that is not an http(s) prefix.
 */
class SourceLinkConfigTest {
  @Test
  void offByDefault() {
    assertThat(SymbolicatorApp.sourceLinks(AppConfig.defaults())).isNull();
  }

  @Test
  void aPrefixMakesAFetcherWithTheKeysLimits() {
    AppConfig cfg =
        AppConfig.defaults()
            .set(ConfigKeys.SOURCE_LINK_ALLOW, "https://raw.githubusercontent.com/my-org/")
            .set(ConfigKeys.SOURCE_LINK_TIMEOUT_MS, "1500")
            .set(ConfigKeys.SOURCE_LINK_MAX_FILES_PER_EVENT, "3")
            .set(ConfigKeys.CACHE_MISSING_RETRY_MS, "1234");
    SourceLinkFetcher f = SymbolicatorApp.sourceLinks(cfg);
    assertThat(f.enabled()).isTrue();
    assertThat(f.settings().timeout()).isEqualTo(Duration.ofMillis(1500));
    assertThat(f.settings().maxFilesPerEvent()).isEqualTo(3);
    assertThat(f.settings().maxFileBytes()).isEqualTo(8L << 20);
    assertThat(f.settings().missingRetryMs()).isEqualTo(1234);
    assertThat(f.settings().policy().allowPrivate()).isFalse();
    assertThat(f.settings().policy().target("https://raw.githubusercontent.com/my-org/a/b.cs"))
        .hasToString("https://raw.githubusercontent.com:443/my-org/a/b.cs");
    assertThat(f.settings().policy().target("https://raw.githubusercontent.com/other/b.cs"))
        .isNull();
  }

  @Test
  void aBadPrefixStopsStartUp() {
    AppConfig cfg =
        AppConfig.defaults().set(ConfigKeys.SOURCE_LINK_ALLOW, "raw.githubusercontent.com");
    assertThatThrownBy(() -> SymbolicatorApp.sourceLinks(cfg))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("raw.githubusercontent.com");
  }
}
