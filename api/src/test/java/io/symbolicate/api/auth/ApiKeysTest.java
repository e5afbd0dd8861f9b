package io.symbolicate.api.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Keys configured as hashes, each bound to a scope and to actions. */
class ApiKeysTest {
  private static final String UPLOADER = ApiKeys.hash("secret") + "=acme:upload+symbolicate";
  private static final String SUBMITTER = ApiKeys.hash("other") + "=global:submit";

  @Test
  void aKeyActsInItsScopeOnlyForItsActions() throws Exception {
    ApiKeys k = ApiKeys.parse(UPLOADER + ", " + SUBMITTER);
    assertThat(k.authorize("APIKey secret", Action.UPLOAD)).isEqualTo("acme");
    assertThat(k.authorize("apikey  secret ", Action.SYMBOLICATE)).isEqualTo("acme");
    assertThat(k.authorize("APIKey other", Action.SUBMIT)).isEqualTo("global");
    assertThatThrownBy(() -> k.authorize("APIKey other", Action.UPLOAD))
        .isInstanceOf(ApiKeyException.class)
        .hasMessageContaining("may not upload")
        .extracting(e -> ((ApiKeyException) e).status())
        .isEqualTo(403);
    assertThatThrownBy(() -> k.authorize("APIKey SECRET", Action.UPLOAD))
        .extracting(e -> ((ApiKeyException) e).status())
        .isEqualTo(403);
    assertThatThrownBy(() -> k.authorize("APIKey " + ApiKeys.hash("secret"), Action.UPLOAD))
        .as("the hash itself is not a key")
        .extracting(e -> ((ApiKeyException) e).status())
        .isEqualTo(403);
    assertThatThrownBy(() -> k.authorize(null, Action.UPLOAD))
        .extracting(e -> ((ApiKeyException) e).status())
        .isEqualTo(401);
    assertThatThrownBy(() -> k.authorize("Bearer secret", Action.UPLOAD))
        .extracting(e -> ((ApiKeyException) e).status())
        .isEqualTo(401);
    assertThat(k.grantOf("x".repeat(ApiKeys.MAX_KEY_CHARS + 1))).isNull();
    assertThat(k.anyAllows(Action.UPLOAD)).isTrue();
    assertThat(ApiKeys.parse(SUBMITTER).anyAllows(Action.UPLOAD)).isFalse();
    assertThat(ApiKeys.parse("").isEmpty()).isTrue();
  }

  @Test
  void malformedEntriesAreRefusedWithTheirReason() {
    String h = ApiKeys.hash("k");
    assertThatThrownBy(() -> ApiKeys.parse("secret=acme:upload"))
        .hasMessageContaining("64 hex digits");
    assertThatThrownBy(() -> ApiKeys.parse(h + "=acme")).hasMessageContaining("<scope>:<action>");
    assertThatThrownBy(() -> ApiKeys.parse(h)).hasMessageContaining("<scope>:<action>");
    assertThatThrownBy(() -> ApiKeys.parse(h + "=acme:")).hasMessageContaining("<scope>:<action>");
    assertThatThrownBy(() -> ApiKeys.parse(h + "=acme:delete"))
        .hasMessageContaining("unknown API key action 'delete'");
    assertThatThrownBy(() -> ApiKeys.parse(h + "=../x:upload"))
        .hasMessageContaining("invalid scope");
    assertThatThrownBy(() -> ApiKeys.parse(h + "=a:upload," + h + "=b:upload"))
        .hasMessageContaining("twice");
  }
}
