package io.symbolicate.api.collect;

import io.symbolicate.api.auth.Action;
import io.symbolicate.api.auth.ApiKeys;
import io.symbolicate.api.auth.Grant;
import java.util.List;

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

  /** A key a request carries and where: {@code Authorization header}, {@code api_key query parameter}, ... */
  public record Carried(String channel, String key) {}

  /** The scope of a report that carries no key: the global one, unless keys are required (401). */
  String scopeWithoutKey() throws SubmitException {
    if (required) {
      throw new SubmitException(
          401,
          "unauthorized",
          "an API key is required (Authorization: APIKey <key>, "
              + "the api_key query parameter, or an api_key field before the dumps)");
    }
    return GLOBAL;
  }

  /** The scope of one key, which must be valid and allow {@code submit} (403 naming its channel). */
  String scope(Carried c) throws SubmitException {
    Grant g = keys.grantOf(c.key());
    if (g == null) {
      throw new SubmitException(
          403, "forbidden", "the API key in the " + c.channel() + " is not valid");
    }
    if (!g.allows(Action.SUBMIT)) {
      throw new SubmitException(
          403, "forbidden", "the API key in the " + c.channel() + " may not submit");
    }
    return g.scope();
  }

  /**
   * One rule for every key a request carries (docs/api/keys.md): each must be valid and all must
   * name the same scope, else 403 with the reason. Returns that scope, or null when {@code
   * carried} is empty.
   */
  String scopeOf(List<Carried> carried) throws SubmitException {
    String scope = null;
    Carried first = null;
    for (Carried c : carried) {
      String s = scope(c);
      if (scope != null && !scope.equals(s)) {
        throw conflict(first, c);
      }
      if (scope == null) {
        scope = s;
        first = c;
      }
    }
    return scope;
  }

  /** Two valid keys of different scopes. */
  static SubmitException conflict(Carried a, Carried b) {
    return new SubmitException(
        403,
        "conflicting_keys",
        "the API keys in the "
            + a.channel()
            + " and the "
            + b.channel()
            + " name different scopes: send one key, or keys of one scope");
  }
}
