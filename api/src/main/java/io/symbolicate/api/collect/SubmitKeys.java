package io.symbolicate.api.collect;

import io.symbolicate.api.auth.Action;
import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.api.auth.Grant;

/**
 * The collector's optional API keys ({@code api.keys}, the {@code submit} action): a report with a
 * key goes into the key's scope, one without into the global scope, unless keys are required.
 * Breakpad's and Crashpad's clients cannot easily set headers, so the key may come as
 * {@code Authorization: APIKey <key>}, as the query parameter {@code api_key} (BugSnag's name)
 * or {@code sentry_key} (Sentry's), or as the form field {@code api_key} (docs/api/submit.md).
 */
public record SubmitKeys(ApiKeys keys, boolean required) {
  /** The scope of reports sent without a key. */
  public static final String GLOBAL = "global";

  /** The form field and query parameter that carry a key. */
  public static final String FIELD = "api_key";

  /** Sentry's query parameter for the same. */
  public static final String SENTRY_FIELD = "sentry_key";

  /** The scope of a report that names {@code key} (null: none). */
  String scope(String key) throws SubmitException {
    if (key == null || key.isEmpty()) {
      if (required) {
        throw new SubmitException(
            401,
            "unauthorized",
            "an API key is required (Authorization: APIKey <key>, "
                + "the api_key query parameter, or an api_key field before the dumps)");
      }
      return GLOBAL;
    }
    Grant g = keys.grantOf(key);
    if (g == null) {
      throw new SubmitException(403, "forbidden", "the API key is not valid");
    }
    if (!g.allows(Action.SUBMIT)) {
      throw new SubmitException(403, "forbidden", "the API key may not submit");
    }
    return g.scope();
  }
}
