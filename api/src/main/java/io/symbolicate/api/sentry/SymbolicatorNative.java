package io.symbolicate.api.sentry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.SymbolicatedFrame;
import java.util.Locale;

/**
 * The pieces of Symbolicator's native response ({@code CompletedSymbolicationResponse}: frames,
 * modules, statuses) shared by {@code /applecrashreport} and {@code /minidump}: its names for our
 * statuses, its hex and debug id forms.
 */
public final class SymbolicatorNative {
  private SymbolicatorNative() {}

  /** Addresses as Symbolicator writes them: {@code 0x} and lower-case hex, no padding. */
  public static String hex(long v) {
    return "0x" + Long.toHexString(v);
  }

  /**
   * A symbolicated frame's function as Symbolicator writes it: {@code symbol} and {@code
   * function} (the same name: we do not keep the raw symbol apart), and {@code sym_addr} when the
   * offset into the function is known ({@code address} is the address looked up).
   */
  public static void symbol(ObjectNode frame, SymbolicatedFrame f, long address) {
    if (f.getFunction() == null) {
      return;
    }
    String function = f.getFunction().toString();
    frame.put("symbol", function);
    if (f.getFunctionOffset() != null) {
      frame.put("sym_addr", hex(address - f.getFunctionOffset()));
    }
    frame.put("function", function);
  }

  /**
   * Sentry's form of a Breakpad debug id: the UUID hyphenated in lower case, then {@code -age}
   * in hex when the age is not 0 ({@code 3249D99D0C4049318610F4E4FB0B69361} →
   * {@code 3249d99d-0c40-4931-8610-f4e4fb0b6936-1}); anything else as given, lower-cased.
   */
  public static String debugId(String breakpad) {
    if (breakpad == null) {
      return null;
    }
    String s = breakpad.toLowerCase(Locale.ROOT);
    if (s.length() < 32 || !s.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
      return s;
    }
    String uuid =
        s.substring(0, 8)
            + "-"
            + s.substring(8, 12)
            + "-"
            + s.substring(12, 16)
            + "-"
            + s.substring(16, 20)
            + "-"
            + s.substring(20, 32);
    String age = s.substring(32).replaceFirst("^0+", "");
    return age.isEmpty() ? uuid : uuid + "-" + age;
  }

  /** Symbolicator's frame status for ours. */
  public static String frameStatus(FrameStatus s) {
    return switch (s) {
      case symbolicated -> "symbolicated";
      case missing_symbols, fetch_failed -> "missing";
      case no_symbol -> "missing_symbol";
      case unknown_module, invalid_frame -> "unknown_image";
      case malformed_symbols -> "malformed";
      default -> "missing";
    };
  }

  /**
   * Symbolicator's module status ({@code debug_status}) for ours: a module that was not loaded
   * before the request's deadline is {@code timeout}, one whose fetch failed
   * {@code fetching_failed}.
   */
  public static String moduleStatus(ModuleStatus s, boolean notLoadedInTime) {
    return switch (s) {
      case found -> "found";
      case unused -> "unused";
      case missing -> "missing";
      case malformed, malformed_request -> "malformed";
      case fetch_failed -> notLoadedInTime ? "timeout" : "fetching_failed";
      default -> "other";
    };
  }

  /** Symbolicator's {@code features} of a module: a found Breakpad table has symbols and, for walks, CFI. */
  public static void features(ObjectNode module, boolean found, boolean unwind) {
    ObjectNode f = module.putObject("features");
    f.put("has_debug_info", found);
    f.put("has_unwind_info", found && unwind);
    f.put("has_symbols", found);
    f.put("has_sources", false);
  }

  /** The last segment of a Unix or Windows path. */
  public static String basename(String path) {
    int cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
    return path.substring(cut + 1);
  }
}
