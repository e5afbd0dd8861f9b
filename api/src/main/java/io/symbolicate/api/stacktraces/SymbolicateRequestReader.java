package io.symbolicate.api.stacktraces;

import static io.symbolicate.api.sentry.SentryJson.array;
import static io.symbolicate.api.sentry.SentryJson.bad;
import static io.symbolicate.api.sentry.SentryJson.object;
import static io.symbolicate.api.sentry.SentryJson.optBoolean;
import static io.symbolicate.api.sentry.SentryJson.optObject;
import static io.symbolicate.api.sentry.SentryJson.optString;
import static io.symbolicate.api.sentry.SentryJson.string;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.ApiException;
import io.symbolicate.api.sentry.SentryJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and validates a {@code /symbolicate} body into a {@link SymbolicateRequest}. Every
 * refusal is a 400 naming the field by its path, or a 413 for a list over its limit: frames in
 * all, stack traces and modules each at most {@code http.max.frames}, registers at most {@link
 * #MAX_REGISTERS} per stack.
 */
final class SymbolicateRequestReader {
  /** Symbolicator's {@code ObjectType}s. */
  static final Set<String> TYPES = Set.of("elf", "macho", "pe", "pe_dotnet", "wasm", "unknown");

  /** Registers per stack trace (a CPU has a few dozen; arm64 with its vector registers ~100). */
  static final int MAX_REGISTERS = 512;

  /** Characters of a string field echoed or used as a name. */
  static final int MAX_STRING = 4096;

  private static final Pattern REL = Pattern.compile("rel:(0|[1-9][0-9]{0,8})");

  private final int maxFrames;

  SymbolicateRequestReader(int maxFrames) {
    this.maxFrames = maxFrames;
  }

  SymbolicateRequest read(JsonNode body) {
    SentryJson.requireObject(body, "the request body");
    List<JsonNode> rawModules = array(body, "modules", "", maxFrames);
    List<SymbolicateRequest.Module> modules = new ArrayList<>(rawModules.size());
    for (int m = 0; m < rawModules.size(); m++) {
      modules.add(module(rawModules.get(m), "modules[" + m + "]"));
    }

    List<SymbolicateRequest.Stacktrace> traces =
        SentryJson.stacktraces(
            body,
            maxFrames,
            SymbolicateRequestReader::frame,
            (trace, path, frames) ->
                new SymbolicateRequest.Stacktrace(
                    optHex(trace, "thread_id", path),
                    limited(optString(trace, "thread_name", path), path + ".thread_name"),
                    optBoolean(trace, "is_requesting", path),
                    registers(trace, path),
                    frames));

    JsonNode options = optObject(body, "options", "");
    Boolean context =
        options == null ? null : optBoolean(options, "apply_source_context", "options");
    if (options != null) {
      optBoolean(options, "dif_candidates", "options"); // checked; candidates are not listed
    }
    JsonNode sources = body.get("sources");
    if (sources != null && !sources.isNull() && !sources.isArray()) {
      throw bad("sources", "must be an array");
    }
    return new SymbolicateRequest(
        traces, modules, context == null || context, optHex(body, "signal", ""));
  }

  private static SymbolicateRequest.Module module(JsonNode item, String path) {
    JsonNode m = object(item, path);
    String type = string(m, "type", path);
    if (!TYPES.contains(type)) {
      throw bad(
          path + ".type",
          "must be one of elf, macho, pe, pe_dotnet, wasm, unknown; got \"" + clip(type) + "\"");
    }
    Long imageAddr = optHex(m, "image_addr", path);
    Long imageSize = optHex(m, "image_size", path);
    return new SymbolicateRequest.Module(
        type,
        limited(optString(m, "code_id", path), path + ".code_id"),
        limited(optString(m, "code_file", path), path + ".code_file"),
        limited(optString(m, "debug_id", path), path + ".debug_id"),
        limited(optString(m, "debug_file", path), path + ".debug_file"),
        imageAddr == null ? 0 : imageAddr,
        imageSize);
  }

  private static SymbolicateRequest.Frame frame(JsonNode item, String path) {
    JsonNode f = object(item, path);
    Long addr = optHex(f, "instruction_addr", path);
    if (addr == null) {
      throw bad(path + ".instruction_addr", "is required");
    }
    String mode = optString(f, "addr_mode", path);
    int moduleIndex = -1;
    if (mode != null && !mode.equals("abs")) {
      Matcher rel = REL.matcher(mode);
      if (!rel.matches()) {
        throw bad(
            path + ".addr_mode",
            "must be \"abs\" or \"rel:N\" (N a module's index), got \"" + clip(mode) + "\"");
      }
      moduleIndex = Integer.parseInt(rel.group(1));
    }
    return new SymbolicateRequest.Frame(
        addr,
        moduleIndex,
        mode == null ? "abs" : mode,
        optHex(f, "function_id", path),
        optBoolean(f, "adjust_instruction_addr", path),
        limited(optString(f, "trust", path), path + ".trust"),
        limited(optString(f, "package", path), path + ".package"));
  }

  private static Map<String, Long> registers(JsonNode trace, String path) {
    JsonNode r = optObject(trace, "registers", path);
    if (r == null) {
      return Map.of();
    }
    if (r.size() > MAX_REGISTERS) {
      throw ApiException.tooLarge(
          path + ".registers: has " + r.size() + " entries, at most " + MAX_REGISTERS);
    }
    Map<String, Long> out = new LinkedHashMap<>();
    for (var it = r.fields(); it.hasNext(); ) {
      var e = it.next();
      String name = limited(e.getKey(), path + ".registers");
      Long v = optHex(r, e.getKey(), path + ".registers");
      if (v != null) {
        out.put(name, v);
      }
    }
    return out;
  }

  /**
   * Symbolicator's {@code HexValue}: a JSON number, or a string, hex after {@code 0x}, else
   * decimal; 64 bits unsigned.
   */
  static Long optHex(JsonNode parent, String field, String path) {
    JsonNode n = parent.get(field);
    if (n == null || n.isNull() || n.isMissingNode()) {
      return null;
    }
    String p = path.isEmpty() ? field : path + "." + field;
    if (n.isIntegralNumber()) {
      if (!n.canConvertToLong() || n.longValue() < 0) {
        if (n.bigIntegerValue().signum() >= 0 && n.bigIntegerValue().bitLength() <= 64) {
          return n.bigIntegerValue().longValue();
        }
        throw bad(p, "must be an unsigned 64-bit value, got " + clip(n.asText()));
      }
      return n.longValue();
    }
    if (!n.isTextual()) {
      throw bad(p, "must be a hex string (0x...) or a number, got " + n.getNodeType());
    }
    String s = n.textValue();
    try {
      if (s.startsWith("0x") || s.startsWith("0X")) {
        String hex = s.substring(2);
        if (hex.isEmpty() || hex.length() > 16 || hex.startsWith("+") || hex.startsWith("-")) {
          throw new NumberFormatException();
        }
        return Long.parseUnsignedLong(hex, 16);
      }
      if (s.isEmpty() || s.length() > 20 || s.startsWith("+") || s.startsWith("-")) {
        throw new NumberFormatException();
      }
      return Long.parseUnsignedLong(s, 10);
    } catch (NumberFormatException e) {
      throw bad(p, "not a 64-bit hex (0x...) or decimal value: \"" + clip(s) + "\"");
    }
  }

  private static String limited(String s, String path) {
    if (s != null && s.length() > MAX_STRING) {
      throw bad(path, "longer than " + MAX_STRING + " characters");
    }
    return s;
  }

  private static String clip(String s) {
    return s.length() > 80 ? s.substring(0, 80) + "..." : s;
  }
}
