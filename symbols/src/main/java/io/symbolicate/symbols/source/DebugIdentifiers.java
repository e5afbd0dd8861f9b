package io.symbolicate.symbols.source;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Validation of identifiers that become storage keys or URLs. Crash reports are untrusted input:
 * a debug file name like {@code ../../etc/passwd} or an id with a slash must never reach S3, the
 * filesystem or an HTTP server. A bad identifier is a per-module {@code malformed_request}.
 */
public final class DebugIdentifiers {
  public static final String GLOBAL_SCOPE = "global";
  private static final Pattern HEX_ID = Pattern.compile("[0-9A-Fa-f]{1,80}");
  private static final Pattern SCOPE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");
  private static final int MAX_FILE_NAME = 255;

  private DebugIdentifiers() {}

  /** A validated native module identity; the debug id is upper-case hex without dashes. */
  public record Native(String debugFile, String debugId) {
    public String key() {
      return debugFile + "/" + debugId;
    }
  }

  /** Thrown for identifiers that must not become keys. */
  public static final class InvalidIdentifierException extends IllegalArgumentException {
    public InvalidIdentifierException(String message) {
      super(message);
    }
  }

  public static Native nativeModule(String debugFile, String debugId) {
    return new Native(requireFileName(debugFile), normalizeDebugId(debugId));
  }

  /** Accepts the breakpad form (hex) and the GUID form with dashes; returns upper-case hex. */
  public static String normalizeDebugId(String id) {
    if (id == null || id.isEmpty()) {
      throw new InvalidIdentifierException("debug id is empty");
    }
    String hex = id.replace("-", "");
    if (!HEX_ID.matcher(hex).matches()) {
      throw new InvalidIdentifierException("debug id must be hexadecimal: " + printable(id));
    }
    return hex.toUpperCase(Locale.ROOT);
  }

  /** A single path segment: no separators, no dot segments, no control characters. */
  public static String requireFileName(String name) {
    if (name == null || name.isEmpty()) {
      throw new InvalidIdentifierException("debug file name is empty");
    }
    if (name.length() > MAX_FILE_NAME) {
      throw new InvalidIdentifierException("debug file name longer than " + MAX_FILE_NAME + " characters");
    }
    if (name.equals(".") || name.equals("..")) {
      throw new InvalidIdentifierException("debug file name is a dot segment: " + name);
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '/' || c == '\\') {
        throw new InvalidIdentifierException("debug file name contains a path separator: " + printable(name));
      }
      if (c < 0x20 || c == 0x7f || Character.isISOControl(c)) {
        throw new InvalidIdentifierException("debug file name contains a control character: " + printable(name));
      }
      if (c == '%' || c == '?' || c == '#') {
        throw new InvalidIdentifierException("debug file name contains a URL metacharacter: " + printable(name));
      }
    }
    return name;
  }

  public static String requireScope(String scope) {
    if (scope == null || !SCOPE.matcher(scope).matches()) {
      throw new InvalidIdentifierException("scope must match " + SCOPE.pattern() + ": " + printable(String.valueOf(scope)));
    }
    return scope;
  }

  private static String printable(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length() && i < 80; i++) {
      char c = s.charAt(i);
      b.append(c < 0x20 || c == 0x7f ? String.format("\\x%02x", (int) c) : String.valueOf(c));
    }
    return "\"" + b + (s.length() > 80 ? "..." : "") + "\"";
  }
}
