package io.symbolicate.connectors.source;

import static io.symbolicate.symbols.testing.Fuzzing.check;
import static io.symbolicate.symbols.testing.Fuzzing.expect;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.symbolicate.symbols.testing.Fuzzing;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Timeout;

/**
 * The Source Link policy on hostile URLs (docs/fuzzing.md, {@code source-link-url}): the input as
 * a Source Link URL under a fixed allow rule with a mirror, and as an allow list. A URL is fetched
 * only from under the mirror, from a target the policy itself accepts; an allow list is a policy
 * or an {@link IllegalArgumentException}, nothing else.
 */
class SourceLinkFuzzTests {
  static final String MIRROR = "http://mirror.internal:80/org/";
  static final SourceLinkPolicy POLICY =
      SourceLinkPolicy.parse("https://raw.githubusercontent.com/org/=" + MIRROR, false);

  @FuzzTest
  @Timeout(Fuzzing.TIMEOUT_SECONDS)
  void url(byte[] data) throws Exception {
    expect(
        data,
        () -> {
          String s = new String(data, StandardCharsets.UTF_8);
          URI t = POLICY.target(s);
          if (t != null) {
            check(t.toString().startsWith(MIRROR), "a target outside the mirror: " + t);
            check(POLICY.permitsRedirect(t), "a target the policy refuses: " + t);
          }
          try {
            SourceLinkPolicy.parse(s, false);
          } catch (IllegalArgumentException e) {
            check(e.getMessage() != null, "a refusal without a reason");
          }
        });
  }
}
