package io.symbolicate.api.js;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Sentry's frame-name derivations, with the examples Symbolicator documents for them. */
class SentryJsNamesTest {

  @ParameterizedTest
  @CsvSource({
    "foo, foo",
    "foo.foo, foo.foo",
    "foo.foo.foo, {foo#2}.foo",
    "bar.foo.foo, bar.foo.foo",
    "bar.foo.foo.foo, bar.{foo#2}.foo",
    "bar.foo.foo.onError, bar.{foo#2}.onError",
    "bar.bar.bar.foo.foo.onError, {bar#3}.{foo#2}.onError",
    "bar.foo.foo.bar.bar.onError, bar.{foo#2}.{bar#2}.onError",
  })
  void foldsRepeatedNameParts(String in, String out) {
    assertThat(SentryJsNames.foldFunctionName(in)).isEqualTo(out);
  }

  @ParameterizedTest
  @CsvSource({
    "http://google.com/js/v1.0/foo/bar/baz.js, foo/bar/baz",
    "http://example.com/test.js, test",
    "./src/components/CampaignContent.tsx, src/components/CampaignContent",
    "http://example.com/static/app.min.js?v=3#x, app",
    "https://cdn.example.com/0123456789abcdef0123456789abcdef/lib/util.js, lib/util",
    "app:///_next/server/pages/_error.js, server/pages/_error",
    "~/bundle-deadbeef1.js, bundle",
  })
  void generatesModules(String in, String out) {
    assertThat(SentryJsNames.generateModule(in)).isEqualTo(out);
  }

  @ParameterizedTest
  @CsvSource({
    "webpack:///./src/a.tsx, ./src/a.tsx",
    "webpack://my-app/./src/a.tsx, ./src/a.tsx",
    "webpack:///~/lodash/index.js, ~/lodash/index.js",
    "webpack:///src/a.tsx, src/a.tsx",
    "./src/a.tsx, ./src/a.tsx",
  })
  void fixesWebpackFilenames(String in, String out) {
    assertThat(SentryJsNames.fixupWebpackFilename(in)).isEqualTo(out);
  }

  @ParameterizedTest
  @CsvSource({
    "http://example.com/test.min.js, test.js, http://example.com/test.js",
    "http://example.com/js/test.min.js, ../src/a.js, http://example.com/src/a.js",
    "http://example.com/js/test.min.js, ~/src/a.js, http://example.com/src/a.js",
    "http://example.com/js/test.min.js, /src/a.js, http://example.com/src/a.js",
    "http://example.com/js/test.min.js, webpack:///./src/a.js, webpack:///./src/a.js",
    "http://example.com/js/test.min.js, https://other.org/a.js, https://other.org/a.js",
    "/srv/app/dist/main.js, ../src/a.js, /srv/app/src/a.js",
  })
  void joinsSourcesToTheMinifiedUrl(String base, String source, String out) {
    assertThat(SentryJsNames.joinPaths(base, source)).isEqualTo(out);
  }
}
