package io.symbolicate.api.minidump;

import static io.symbolicate.api.sentry.SymbolicatorNative.hex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.api.Json;
import io.symbolicate.api.sentry.SymbolicatorNative;
import io.symbolicate.symbols.minidump.CpuContext;
import io.symbolicate.symbols.minidump.SystemInfo;
import io.symbolicate.symbols.minidump.walk.CallStack;
import io.symbolicate.symbols.minidump.walk.CodeModule;
import io.symbolicate.symbols.minidump.walk.Frame;
import io.symbolicate.symbols.minidump.walk.ProcessState;
import io.symbolicate.symbols.minidump.walk.Trust;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Symbolicator's answer to {@code /minidump} ({@code CompletedSymbolicationResponse}) from a
 * walk: {@code status}, {@code timestamp}, {@code system_info}, {@code crashed},
 * {@code crash_reason} ({@code reason / 0xaddress}), {@code assertion}, a stack trace per thread
 * (registers of its first frame, frames with {@code trust}) and the dump's loaded modules in
 * address order, each {@code unused} unless a frame lies in it. A symbolicated caller shows the
 * address looked up (inside its call), any other frame the address the walk found.
 */
final class MinidumpResponse {
  private MinidumpResponse() {}

  static JsonNode render(ProcessState state, Map<CodeModule, String> arches) {
    ObjectNode root = Json.MAPPER.createObjectNode();
    root.put("status", "completed");
    if (state.timeDateStamp() != 0) {
      root.put("timestamp", state.timeDateStamp());
    }
    systemInfo(root.putObject("system_info"), state);
    root.put("crashed", state.crashed());
    if (state.crashed()) {
      root.put(
          "crash_reason", CrashReasons.symbolicators(state) + " / " + hex(state.crashAddress()));
    }
    root.put("assertion", state.assertion() == null ? "" : state.assertion());

    Set<CodeModule> referenced = new HashSet<>();
    Set<CodeModule> without = new HashSet<>(state.modulesWithoutSymbols());
    ArrayNode stacks = root.putArray("stacktraces");
    for (int t = 0; t < state.threads().size(); t++) {
      CallStack stack = state.threads().get(t);
      ObjectNode st = stacks.addObject();
      st.put("thread_id", stack.threadId());
      if (stack.threadName() != null && !stack.threadName().isEmpty()) {
        st.put("thread_name", stack.threadName());
      }
      st.put("is_requesting", t == state.requestingThread());
      CpuContext first = firstContext(stack);
      if (first != null) {
        registers(st.putObject("registers"), first);
      }
      ArrayNode frames = st.putArray("frames");
      int physical = 0;
      for (Frame f : stack.frames()) {
        if (f.module() != null) {
          referenced.add(f.module());
        }
        frames.add(frame(f, physical, without));
        if (!f.isInline()) {
          physical++;
        }
      }
    }

    String type = moduleType(state.systemInfo());
    ArrayNode modules = root.putArray("modules");
    for (CodeModule m : state.modules()) {
      ObjectNode o = modules.addObject();
      String status =
          !referenced.contains(m) ? "unused" : without.contains(m) ? "missing" : "found";
      o.put("debug_status", status);
      o.put("unwind_status", status);
      SymbolicatorNative.features(o, status.equals("found"), true);
      o.put("arch", status.equals("found") ? arches.getOrDefault(m, "unknown") : "unknown");
      o.put("type", type);
      o.put("code_id", codeId(m, type));
      o.put("code_file", m.codeFile());
      o.put("debug_id", SymbolicatorNative.debugId(m.debugId()));
      o.put("debug_file", m.debugFile());
      o.put("image_addr", hex(m.base()));
      o.put("image_size", m.size());
    }
    return root;
  }

  private static ObjectNode frame(Frame f, int index, Set<CodeModule> without) {
    ObjectNode o = Json.MAPPER.createObjectNode();
    boolean symbolicated = !f.function().isEmpty();
    String status =
        symbolicated
            ? "symbolicated"
            : f.module() == null
                ? "unknown_image"
                : without.contains(f.module()) ? "missing" : "missing_symbol";
    o.put("status", status);
    o.put("original_index", index);
    o.put("instruction_addr", hex(symbolicated ? f.instruction() : f.returnAddress()));
    if (f.module() != null) {
      o.put("package", f.module().codeFile());
    }
    if (symbolicated) {
      o.put("symbol", f.function());
      o.put("sym_addr", hex(f.functionBase()));
      o.put("function", f.function());
      if (!f.sourceFile().isEmpty()) {
        o.put("filename", SymbolicatorNative.basename(f.sourceFile()));
        o.put("abs_path", f.sourceFile());
        o.put("lineno", f.sourceLine());
      }
    }
    o.put("trust", trust(f.trust()));
    return o;
  }

  /** Symbolicator's (rust-minidump's) names of how a frame was found. */
  static String trust(Trust t) {
    return switch (t) {
      case CONTEXT -> "context";
      case CFI -> "cfi";
      case FRAME_POINTER -> "fp";
      case SCAN -> "scan";
      case CFI_SCAN -> "cfi_scan";
      case PREWALKED -> "prewalked";
      case INLINE -> "inline";
      default -> "none";
    };
  }

  private static void systemInfo(ObjectNode si, ProcessState state) {
    SystemInfo s = state.systemInfo();
    String osName = "";
    String osVersion = "";
    String osBuild = "";
    String cpu = "";
    if (s != null) {
      osName =
          switch (s.os()) {
            case "Windows NT", "Windows" -> "Windows";
            case "Mac OS X" -> "macOS";
            default -> s.os();
          };
      osVersion = s.majorVersion() + "." + s.minorVersion() + "." + s.buildNumber();
      String csd = s.csdVersion() == null ? "" : s.csdVersion().trim();
      if (s.platformId() == SystemInfo.OS_LINUX || s.platformId() == SystemInfo.OS_ANDROID) {
        // Linux dumps carry uname's "<sysname> <release> <version...> <machine>" as the CSD
        // version: rust-minidump reports the release as the version and the version as the build
        String[] t = csd.split("\\s+");
        if (t.length >= 3) {
          osVersion = t[1];
          osBuild = String.join(" ", Arrays.asList(t).subList(2, t.length - 1));
        }
      } else {
        osBuild = csd;
      }
      cpu =
          switch (s.cpuName()) {
            case "amd64" -> "x86_64";
            default -> s.cpuName();
          };
    }
    si.put("os_name", osName);
    si.put("os_version", osVersion);
    si.put("os_build", osBuild);
    si.put("cpu_arch", cpu);
    si.put("device_model", "");
  }

  private static String moduleType(SystemInfo s) {
    if (s == null) {
      return "unknown";
    }
    return switch (s.osShort()) {
      case "windows" -> "pe";
      case "mac", "ios" -> "macho";
      case "linux", "android" -> "elf";
      default -> "unknown";
    };
  }

  /**
   * Symbolicator's code id: Breakpad's, lower-cased; for Mach-O (where Breakpad writes the
   * placeholder {@code id}) the UUID, which is the debug id without its age.
   */
  private static String codeId(CodeModule m, String type) {
    if (type.equals("macho") && m.debugId().length() >= 32) {
      return m.debugId().substring(0, 32).toLowerCase(Locale.ROOT);
    }
    return m.codeId().toLowerCase(Locale.ROOT);
  }

  private static CpuContext firstContext(CallStack stack) {
    for (Frame f : stack.frames()) {
      if (f.context() != null) {
        return f.context();
      }
    }
    return null;
  }

  /** The valid registers by name ({@code efl} as rust-minidump's {@code eflags}), sorted. */
  private static void registers(ObjectNode out, CpuContext c) {
    Map<String, String> sorted = new TreeMap<>();
    var names = c.cpu().registers();
    for (int r = 0; r < names.size(); r++) {
      if (c.isValid(r)) {
        String name = names.get(r).equals("efl") ? "eflags" : names.get(r);
        sorted.put(name, hex(c.get(r)));
      }
    }
    sorted.forEach(out::put);
  }
}
