package io.symbolicate.connectors.source;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class S3SourceTest {

  /** Only S3's "you may not see this key" is an answer about the key; a bad credential or clock is a failure. */
  @Test
  void onlyAccessDeniedCountsAsMissing() {
    assertThat(S3Source.deniedMeansMissing("AccessDenied")).isTrue();
    assertThat(S3Source.deniedMeansMissing(null))
        .as("a 403 without a body (HEAD-like answers)")
        .isTrue();
    for (String code :
        new String[] {
          "InvalidAccessKeyId",
          "SignatureDoesNotMatch",
          "RequestTimeTooSkewed",
          "ExpiredToken",
          "InvalidToken",
          "AccountProblem"
        }) {
      assertThat(S3Source.deniedMeansMissing(code)).as(code).isFalse();
    }
  }
}
