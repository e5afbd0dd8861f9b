package io.symbolicate.api.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Who reads which scope on the symbolication endpoints. */
class ScopeAccessTest {
  private static final ApiKeys KEYS =
      ApiKeys.parse(
          ApiKeys.hash("acme-read")
              + "=acme:symbolicate,"
              + ApiKeys.hash("acme-upload")
              + "=acme:upload,"
              + ApiKeys.hash("global-read")
              + "=global:symbolicate");
  private static final ScopeAccess DEFAULTS = new ScopeAccess(KEYS, Set.of("global"));

  @Test
  void anonymousRequestsReadOnlyTheConfiguredScopes() throws Exception {
    assertThat(DEFAULTS.scopeFor(null, null, Action.SYMBOLICATE)).isEqualTo("global");
    assertThat(DEFAULTS.scopeFor("", " ", Action.SYMBOLICATE)).isEqualTo("global");
    assertThat(DEFAULTS.scopeFor("global", null, Action.SYMBOLICATE)).isEqualTo("global");
    assertRefused(
        DEFAULTS, "acme", null, 403, "scope 'acme' needs an API key allowed to symbolicate");
    ScopeAccess open = new ScopeAccess(KEYS, Set.of("global", "demo"));
    assertThat(open.scopeFor("demo", null, Action.SYMBOLICATE)).isEqualTo("demo");
    ScopeAccess closed = new ScopeAccess(KEYS, Set.of());
    assertRefused(closed, null, null, 401, "Authorization: APIKey header is required");
    assertRefused(closed, "global", null, 403, "needs an API key");
    assertThat(closed.scopeFor(null, "APIKey global-read", Action.SYMBOLICATE)).isEqualTo("global");
  }

  @Test
  void aKeyReadsItsOwnScopeOnly() throws Exception {
    // named or not, the key's scope: either order of header and key gives the same
    assertThat(DEFAULTS.scopeFor(null, "APIKey acme-read", Action.SYMBOLICATE)).isEqualTo("acme");
    assertThat(DEFAULTS.scopeFor("acme", "APIKey acme-read", Action.SYMBOLICATE)).isEqualTo("acme");
    assertRefused(
        DEFAULTS, "other", "APIKey acme-read", 403, "the API key is for scope 'acme', not 'other'");
    // a global key names no tenant, even one open to anonymous requests is read as the key's
    assertRefused(DEFAULTS, "acme", "APIKey global-read", 403, "is for scope 'global', not 'acme'");
    // a key for the tenant may not read the global scope by name either: it reads its own then
    // global
    assertRefused(DEFAULTS, "global", "APIKey acme-read", 403, "is for scope 'acme', not 'global'");
  }

  @Test
  void missingWrongAndUnderprivilegedKeysAreRefused() {
    assertRefused(DEFAULTS, "acme", "APIKey nope", 403, "the API key is not valid");
    // a wrong key is refused even where anonymous requests are allowed: no silent fallback
    assertRefused(DEFAULTS, null, "APIKey nope", 403, "not valid");
    assertRefused(DEFAULTS, "acme", "Bearer acme-read", 401, "must be 'APIKey <key>'");
    assertRefused(DEFAULTS, "acme", "APIKey acme-upload", 403, "may not symbolicate");
    assertRefused(
        DEFAULTS, null, "APIKey " + "k".repeat(ApiKeys.MAX_KEY_CHARS + 1), 403, "not valid");
  }

  @Test
  void anonymousScopesAreParsedStrictly() {
    assertThat(ScopeAccess.parseAnonymousScopes("global")).containsExactly("global");
    assertThat(ScopeAccess.parseAnonymousScopes(" global , demo,"))
        .containsExactlyInAnyOrder("global", "demo");
    assertThat(ScopeAccess.parseAnonymousScopes("none")).isEmpty();
    assertThat(ScopeAccess.parseAnonymousScopes("")).isEmpty();
    assertThatThrownBy(() -> ScopeAccess.parseAnonymousScopes("global,../etc"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("invalid anonymous scope '../etc'");
  }

  private static void assertRefused(
      ScopeAccess a, String scope, String auth, int status, String reason) {
    assertThatThrownBy(() -> a.scopeFor(scope, auth, Action.SYMBOLICATE))
        .isInstanceOfSatisfying(
            ApiKeyException.class,
            e -> {
              assertThat(e.status()).isEqualTo(status);
              assertThat(e.getMessage()).contains(reason);
            });
  }
}
