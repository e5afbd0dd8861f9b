package io.symbolicate.symbols.js;

/**
 * The original name of the function a frame is in, and how it was found.
 *
 * @param name the function name, or null (anonymous, or nothing known)
 * @param nameSource {@code function_map} (Metro/Hermes x_facebook_sources), {@code scope} (the
 *     enclosing function in the minified file, its identifier mapped through the sourcemap),
 *     {@code scope_minified} (same, but the identifier had no mapping, so it is the minified
 *     one), {@code mapping} (the segment's own name: names the token at the position, which is
 *     only a guess at the function), or null
 * @param scopeKind the minified-source scope verdict (named, anonymous, or unknown = not inside
 *     a function), or null when the table was built without the minified file
 */
public record JsFunctionName(String name, String nameSource, MinifiedScopes.ScopeKind scopeKind) {}
